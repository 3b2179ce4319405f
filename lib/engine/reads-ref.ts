import type { NodeId } from "./ids";
import { renderContext, type RenderedContext } from "./render-context";
import { sentIds } from "./sent-messages";
import { spineOf } from "./spine-of";
import { innerSummariesOf, innerSummaryIds } from "./summary-turns";
import type { LedgerNode, NodeLookup } from "./types";

/**
 * How a reply produced from the one rendering rule (compaction.md §3) stores its `reads`
 * ([R134]): the node the rendering ended at and the active summary it rendered with. The
 * ids it stands for are {@link expandReadsRef}'s — a function of immutable nodes only (a
 * spine above an existing node never changes, a summary is never edited), so the reference
 * says forever what the explicit list said when the reply was written. Under an active set
 * it names the summaries the rendering admitted ([R248]).
 */
export interface ReadsRef {
  readonly head: NodeId;
  readonly summary: NodeId | null;
  /**
   * A rendering from an active set (`segmented`, `nested`): the summaries it admitted, in
   * prompt order, and `summary` is null. Each applies whole on the spine and they are
   * disjoint, so rendering with them alone gives back the rendering they came from.
   */
  readonly summaries?: readonly NodeId[];
}

export function readsRefKey(ref: ReadsRef): string {
  const many = ref.summaries === undefined ? "" : `\u0000${ref.summaries.join(",")}`;
  return `${ref.head}\u0000${ref.summary ?? ""}${many}`;
}

/** The summaries a reference renders with. */
export function readsRefSummaries(ref: ReadsRef): readonly NodeId[] {
  return ref.summaries ?? (ref.summary === null ? [] : [ref.summary]);
}

/**
 * The ids a reference stands for: `ref.head`'s spine rendered with the summary substituted,
 * as the provider received it. `getNode` must answer the spine's nodes and the summary with
 * their kind, status, metadata and whether their content is empty (the text itself is not
 * needed), and — for a nested summary — the summaries nested under it. A summary that is
 * gone renders nothing in its place, like an inactive one.
 */
export function expandReadsRef(ref: ReadsRef, getNode: NodeLookup): NodeId[] {
  const spine = spineOf(ref.head, getNode);
  const activeSummaries: LedgerNode[] = [];
  for (const id of readsRefSummaries(ref)) {
    const summary = getNode(id);
    if (summary !== undefined && summary.kind === "summary") activeSummaries.push(summary);
  }
  const innerSummaries = innerSummariesOf(activeSummaries, getNode);
  return sentIds(renderContext({ spine, activeSummaries, innerSummaries }));
}

/**
 * The reference for a rendering from `spine` with the session's `active` set: the original
 * form (`summary`: the single active summary) when the set holds at most one summary and it
 * nests nothing, else the summaries the rendering admitted.
 */
export function readsRefOfRendering(
  rendering: RenderedContext,
  active: readonly LedgerNode[],
): ReadsRef {
  const only = active[0];
  if (active.length <= 1 && (only === undefined || innerSummaryIds(only).length === 0)) {
    return { head: rendering.headId, summary: only?.id ?? null };
  }
  const summaries = rendering.messages.filter((m) => m.kind === "summary").map((m) => m.id);
  return { head: rendering.headId, summary: null, summaries };
}

/**
 * Whether a reply rendered from `spine` may store its reads as a reference: every node the
 * expansion reads must be final (a streaming node's status and text still change).
 */
export function referable(spine: readonly LedgerNode[]): boolean {
  return spine.every((n) => n.status !== "streaming");
}
