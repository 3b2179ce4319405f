import { notFound } from "next/navigation";
import { ChatApp } from "@/components/chat/chat-app";
import { isEngineError } from "@/lib/engine/errors";
import { isIdShaped, asSessionId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { lookupModel } from "@/lib/llm/model-registry";
import { services } from "@/lib/server/services";
import { requireViewer } from "@/lib/server/page-auth";
import type { Workspace } from "@/lib/dispatcher/workspace";

export const dynamic = "force-dynamic";

/** The session if the viewer owns it; another account's session is simply not found. */
async function load(workspace: Workspace, id: string): Promise<SessionRecord | null> {
  try {
    return await workspace.open(asSessionId(id));
  } catch (e) {
    if (isEngineError(e) && e.code === "session_not_found") return null;
    throw e;
  }
}

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isIdShaped(id)) notFound();
  const workspace = await requireViewer(`/s/${id}`);
  const session = await load(workspace, id);
  if (!session) notFound();
  const { compactor, providers, config } = await services();
  const nodes = await workspace.nodes(session.id);
  const budget = compactor.budgetOf(session);
  const description = providers.describe();
  const limits = lookupModel(session.meta.settings?.model ?? description.model);
  return (
    <ChatApp
      session={session}
      nodes={nodes}
      account={{
        name: workspace.actor.name,
        accounts: config.auth,
        isAdmin: workspace.actor.isAdmin,
      }}
      model={{
        label: description.label,
        offline: description.kind === "offline",
        window: budget.window,
        keepRecentTokens: budget.keepRecentTokens,
        notice: session.meta.settings?.contextWindow ? null : (limits.notice ?? null),
      }}
    />
  );
}
