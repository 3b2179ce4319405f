import { notFound } from "next/navigation";
import { ChatApp } from "@/components/chat/chat-app";
import { isEngineError } from "@/lib/engine/errors";
import { isIdShaped, asNodeId, asSessionId, type NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { lookupModel } from "@/lib/llm/model-registry";
import { services } from "@/lib/server/services";
import { requireViewer } from "@/lib/server/page-auth";
import type { Workspace } from "@/lib/dispatcher/workspace";
import { attachmentCapsOf } from "@/lib/files/limits";
import { packLedger } from "@/lib/engine/packed-ledger";

export const dynamic = "force-dynamic";

/**
 * The session if the viewer owns it; another account's session is simply not found. With
 * `?node=` (a search result) it opens at that node: HEAD moves to its branch when needed.
 */
async function load(
  workspace: Workspace,
  id: string,
  node: string | null,
): Promise<{ session: SessionRecord; focusId: NodeId | null; movedFrom: NodeId | null } | null> {
  try {
    return node
      ? await workspace.reveal(asSessionId(id), asNodeId(node))
      : { session: await workspace.open(asSessionId(id)), focusId: null, movedFrom: null };
  } catch (e) {
    if (isEngineError(e) && e.code === "session_not_found") return null;
    throw e;
  }
}

/**
 * The nodes the page is rendered with (docs/big-sessions.md, [R114], [R294]): HEAD's spine,
 * ROOT and the active summary whole (lean), every other node a skeleton the browser fills on
 * demand — all of them, or for a big session the part it opens on, with the count of the
 * versions it leaves out — in columns ([R293]),
 * which the browser parses in a third of the time a list takes.
 */
async function initialNodes(
  workspace: Workspace,
  session: SessionRecord,
  movedFrom: NodeId | null,
) {
  // The HEAD a search hit moved away from: the page offers to compare it ("Back to…").
  const first = await workspace.firstLedger(session, movedFrom ? [movedFrom] : []);
  return {
    nodes: packLedger(session.id, first.nodes),
    rest: first.near
      ? { total: first.total, lastSeq: first.lastSeq, leftOut: first.leftOut }
      : null,
  };
}

export default async function SessionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ node?: string | string[] }>;
}) {
  const { id } = await params;
  if (!isIdShaped(id)) notFound();
  const { node } = await searchParams;
  const workspace = await requireViewer(`/s/${id}`);
  const opened = await load(
    workspace,
    id,
    typeof node === "string" && isIdShaped(node) ? node : null,
  );
  if (!opened) notFound();
  const { session, focusId, movedFrom } = opened;
  const { compactor, providers, config } = await services();
  const { nodes, rest } = await initialNodes(workspace, session, movedFrom);
  const budget = compactor.budgetOf(session);
  const description = providers.describe();
  const limits = lookupModel(session.meta.settings?.model ?? description.model);
  return (
    <ChatApp
      key={session.id}
      session={session}
      nodes={nodes}
      rest={rest}
      account={{
        name: workspace.actor.name,
        accounts: config.auth,
        isAdmin: workspace.actor.isAdmin,
      }}
      model={{
        label: description.label,
        name: description.model,
        offline: description.kind === "offline",
        window: budget.window,
        keepRecentTokens: budget.keepRecentTokens,
        notice: session.meta.settings?.contextWindow ? null : (limits.notice ?? null),
        // The server's model's, before the session's settings (the page applies those).
        vision: lookupModel(description.model).vision,
      }}
      caps={attachmentCapsOf(config)}
      focusId={focusId}
      movedFrom={movedFrom}
    />
  );
}
