import { activeSummaryIds } from "../engine/active-summaries";
import type { NodeId } from "../engine/ids";
import { renderContext, type RenderedContext } from "../engine/render-context";
import { sentMessages } from "../engine/sent-messages";
import type { LedgerNode, SessionRecord } from "../engine/types";
import type { ChatMessage } from "../llm/types";
import type { SessionStore } from "../store/session-store";

/** A head's spine, the session's active summary, and what the model reads from there. */
export interface HeadView {
  readonly spine: readonly LedgerNode[];
  readonly active: LedgerNode | null;
  readonly rendering: RenderedContext;
}

/**
 * What the model reads from `headId`: the head's spine (one recursive query) and the
 * session's active summary, through the engine's one rendering rule (compaction.md §3).
 * Turns and compaction both start here. Nodes are read without their `reads` (the
 * rendering never looks at them, and on a long spine they hold O(spine²) ids): the cost
 * is the spine's text, once ([R118]).
 */
export async function loadView(
  store: SessionStore,
  session: SessionRecord,
  headId: NodeId,
): Promise<HeadView> {
  const [spine, summaries] = await Promise.all([
    store.spine(session.id, headId, { reads: false }),
    store.nodesById(session.id, activeSummaryIds(session.meta), { final: true }),
  ]);
  const activeSummaries = summaries.filter((n) => n.kind === "summary");
  return {
    spine,
    active: activeSummaries[0] ?? null,
    rendering: renderContext({ spine, activeSummaries }),
  };
}

/**
 * The view one node further down: `node` appended under the view's head (its predecessor
 * must be that head). A spine never changes above a node that exists, and the active
 * summary is the same node, so this is what {@link loadView} would read — without a query.
 */
export function viewBelow(view: HeadView, node: LedgerNode): HeadView {
  if (node.predecessorId !== view.spine.at(-1)?.id) {
    throw new Error(`Node ${node.id} does not hang under the view's head.`);
  }
  const spine = [...view.spine, node];
  const activeSummaries = view.active ? [view.active] : [];
  return { spine, active: view.active, rendering: renderContext({ spine, activeSummaries }) };
}

export async function loadRendering(
  store: SessionStore,
  session: SessionRecord,
  headId: NodeId,
): Promise<RenderedContext> {
  return (await loadView(store, session, headId)).rendering;
}

/**
 * The provider's prompt for a rendering, in the same order. OpenAI-compatible servers reject
 * an assistant tool call that no tool result answers — which is exactly what a sub-agent's
 * branch sees (it opens from the caller's tool-call node, before the result exists) — so
 * unanswered calls are left off the wire, and an assistant message left with nothing to say
 * is dropped.
 */
export function toChatMessages(rendered: RenderedContext): ChatMessage[] {
  return toWire(rendered).messages;
}

/** A rendering as the provider receives it. */
export interface Wire {
  readonly messages: ChatMessage[];
  readonly ids: NodeId[];
}

/**
 * The prompt of {@link toChatMessages} and the ids of the nodes it carries, in order: what
 * a reply records as `reads` is exactly what the provider received.
 */
export function toWire(rendered: RenderedContext): Wire {
  const out: ChatMessage[] = [];
  const ids: NodeId[] = [];
  for (const { message: m, calls } of sentMessages(rendered)) {
    ids.push(m.id);
    out.push({
      role: m.role,
      content: m.content,
      ...(calls && calls.length > 0 ? { tool_calls: calls } : {}),
      ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
    });
  }
  return { messages: out, ids };
}
