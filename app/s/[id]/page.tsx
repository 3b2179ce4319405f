import { notFound } from "next/navigation";
import { ChatLoader } from "@/components/chat/chat-loader";
import { isEngineError } from "@/lib/engine/errors";
import { isIdShaped, asSessionId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { lookupModel } from "@/lib/llm/model-registry";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

async function load(id: string): Promise<SessionRecord | null> {
  const { dispatcher } = await services();
  try {
    return await dispatcher.load(asSessionId(id));
  } catch (e) {
    if (isEngineError(e) && e.code === "session_not_found") return null;
    throw e;
  }
}

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isIdShaped(id)) notFound();
  const session = await load(id);
  if (!session) notFound();
  const { store, compactor, providers } = await services();
  const nodes = await store.nodes(session.id);
  const budget = compactor.budgetOf(session);
  const description = providers.describe();
  const limits = lookupModel(session.meta.settings?.model ?? description.model);
  return (
    <ChatLoader
      session={session}
      nodes={nodes}
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
