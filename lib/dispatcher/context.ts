import { activeSummaryIds } from "../engine/active-summaries";
import type { NodeId } from "../engine/ids";
import { renderContext, type RenderedContext } from "../engine/render-context";
import type { SessionRecord } from "../engine/types";
import type { ChatMessage } from "../llm/types";
import type { SessionStore } from "../store/session-store";

/**
 * What the model reads from `headId`: the head's spine (one recursive query) and the
 * session's active summary, through the engine's one rendering rule (compaction.md §3).
 */
export async function loadRendering(
  store: SessionStore,
  session: SessionRecord,
  headId: NodeId,
): Promise<RenderedContext> {
  const [spine, summaries] = await Promise.all([
    store.spine(session.id, headId),
    store.nodesById(session.id, activeSummaryIds(session.meta)),
  ]);
  return renderContext({
    spine,
    activeSummaries: summaries.filter((n) => n.kind === "summary"),
  });
}

/** The provider's prompt for a rendering, in the same order. */
export function toChatMessages(rendered: RenderedContext): ChatMessage[] {
  return rendered.messages.map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.toolCalls ? { tool_calls: m.toolCalls } : {}),
    ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
  }));
}
