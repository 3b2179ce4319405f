import { activeSummaryIds } from "../engine/active-summaries";
import type { NodeId } from "../engine/ids";
import { renderContext, type RenderedContext } from "../engine/render-context";
import { loadInnerSummaries } from "../engine/summary-turns";
import type { LedgerNode, SessionRecord } from "../engine/types";
import type { LedgerReads } from "../store/ledger-reads";
import type { TurnState } from "../store/turn-reads";

/** A head's spine, the session's active summaries, and what the model reads from there. */
export interface HeadView {
  readonly spine: readonly LedgerNode[];
  /** The newest summary the rendering admits (thrash detection counts turns after it). */
  readonly active: LedgerNode | null;
  /** The session's active set, resolved: relics never, dangling ids left out. */
  readonly activeSummaries: readonly LedgerNode[];
  /** The summaries nested under the active ones, at any depth (empty unless `nested`). */
  readonly innerSummaries: readonly LedgerNode[];
  readonly rendering: RenderedContext;
}

/** What {@link loadView} reads: the spine and the active summaries, without `reads`. */
export type ViewReads = Pick<LedgerReads, "spine" | "nodesById">;

/**
 * What the model reads from `headId`: the head's spine (one recursive query) and the
 * session's active summaries, through the engine's one rendering rule (compaction.md §3).
 * Turns and compaction both start here. Nodes are read without their `reads` (the
 * rendering never looks at them, and on a long spine they hold O(spine²) ids): the cost
 * is the spine's text, once ([R118]). A nested summary costs one more query per level of
 * nesting for the summaries it names; other policies never make it.
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
  const active = summaries.filter((n) => n.kind === "summary");
  const inner = await loadInnerSummaries(active, (ids) =>
    store.nodesById(session.id, ids, { final: true }),
  );
  return viewOf(spine, active, inner);
}

/**
 * The view of `headId` from what a turn's load read ({@link TurnState}): the head as read
 * then, the spine above it through the final-node cache, the active summaries as read then.
 * Nothing is read twice; a head the load did not read is loaded as {@link loadView} does.
 */
export async function viewOfTurn(
  store: ViewReads & Pick<LedgerReads, "spineOf">,
  state: TurnState,
  headId: NodeId,
): Promise<HeadView> {
  const head = state.nodes.get(headId);
  if (head === undefined) return loadView(store, state.session, headId);
  const spine = await store.spineOf(state.session.id, head);
  const active = state.summaries.filter((n) => n.kind === "summary");
  const inner = await loadInnerSummaries(active, (ids) =>
    store.nodesById(state.session.id, ids, { final: true }),
  );
  return viewOf(spine, active, inner);
}

/** The view of a spine (ROOT first) under the active summaries read for it. */
export function viewOf(
  spine: readonly LedgerNode[],
  summaries: readonly LedgerNode[],
  innerSummaries: readonly LedgerNode[] = [],
): HeadView {
  const activeSummaries = summaries.filter((n) => n.kind === "summary");
  const rendering = renderContext({ spine, activeSummaries, innerSummaries });
  const newest = rendering.messages.findLast((m) => m.kind === "summary");
  const byId = new Map([...innerSummaries, ...activeSummaries].map((n) => [n.id, n]));
  return {
    spine,
    // The one active summary of a rolling session, admitted here or not (as always).
    active:
      activeSummaries.length === 1 && innerSummaries.length === 0
        ? (activeSummaries[0] ?? null)
        : ((newest === undefined ? undefined : byId.get(newest.id)) ?? null),
    activeSummaries,
    innerSummaries,
    rendering,
  };
}

/**
 * The view one node further down: `node` appended under the view's head (its predecessor
 * must be that head). A spine never changes above a node that exists, and the active
 * summaries are the same nodes, so this is what {@link loadView} would read — without a
 * query.
 */
export function viewBelow(view: HeadView, node: LedgerNode): HeadView {
  if (node.predecessorId !== view.spine.at(-1)?.id) {
    throw new Error(`Node ${node.id} does not hang under the view's head.`);
  }
  return viewOf([...view.spine, node], view.activeSummaries, view.innerSummaries);
}

/** What the model would read from `headId` (the context route, the Markdown export). */
export async function loadRendering(
  store: ViewReads,
  session: SessionRecord,
  headId: NodeId,
): Promise<RenderedContext> {
  return (await loadView(store, session, headId)).rendering;
}
