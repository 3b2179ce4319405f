import { activeSummaryIds } from "../engine/active-summaries";
import type { NodeId } from "../engine/ids";
import { renderContext, type RenderedContext } from "../engine/render-context";
import type { LedgerNode, SessionRecord } from "../engine/types";
import type { SessionStore } from "../store/session-store";

/** A head's spine, the session's active summary, and what the model reads from there. */
export interface HeadView {
  readonly spine: readonly LedgerNode[];
  readonly active: LedgerNode | null;
  readonly rendering: RenderedContext;
}

/** What {@link loadView} reads: the spine and the active summaries, without `reads`. */
export type ViewReads = Pick<SessionStore, "spine" | "nodesById">;

/**
 * What the model reads from `headId`: the head's spine (one recursive query) and the
 * session's active summary, through the engine's one rendering rule (compaction.md §3).
 * Turns and compaction both start here. Nodes are read without their `reads` (the
 * rendering never looks at them, and on a long spine they hold O(spine²) ids): the cost
 * is the spine's text, once ([R118]).
 */
export async function loadView(
  store: ViewReads,
  session: SessionRecord,
  headId: NodeId,
): Promise<HeadView> {
  const [spine, summaries] = await Promise.all([
    store.spine(session.id, headId, { reads: false }),
    store.nodesById(session.id, activeSummaryIds(session.meta), { final: true }),
  ]);
  return viewOf(spine, summaries);
}

/** The view of a spine (ROOT first) under the active summaries read for it. */
export function viewOf(spine: readonly LedgerNode[], summaries: readonly LedgerNode[]): HeadView {
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
  return viewOf([...view.spine, node], view.active ? [view.active] : []);
}

/** What the model would read from `headId` (the context route, the Markdown export). */
export async function loadRendering(
  store: ViewReads,
  session: SessionRecord,
  headId: NodeId,
): Promise<RenderedContext> {
  return (await loadView(store, session, headId)).rendering;
}
