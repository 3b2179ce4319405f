import type { NodeId } from "./ids";
import { renderContext } from "./render-context";
import { sentIds } from "./sent-messages";
import { spineOf } from "./spine-of";
import type { LedgerNode, NodeLookup } from "./types";

/**
 * How a reply produced from the one rendering rule (compaction.md §3) stores its `reads`
 * ([R134]): the node the rendering ended at and the active summary it rendered with. The
 * ids it stands for are {@link expandReadsRef}'s — a function of immutable nodes only (a
 * spine above an existing node never changes, a summary is never edited), so the reference
 * says forever what the explicit list said when the reply was written.
 */
export interface ReadsRef {
  readonly head: NodeId;
  readonly summary: NodeId | null;
}

export function readsRefKey(ref: ReadsRef): string {
  return `${ref.head}\u0000${ref.summary ?? ""}`;
}

/**
 * The ids a reference stands for: `ref.head`'s spine rendered with the summary substituted,
 * as the provider received it. `getNode` must answer the spine's nodes and the summary with
 * their kind, status, metadata and whether their content is empty (the text itself is not
 * needed). A summary that is gone renders nothing in its place, like an inactive one.
 */
export function expandReadsRef(ref: ReadsRef, getNode: NodeLookup): NodeId[] {
  const spine = spineOf(ref.head, getNode);
  const summary: LedgerNode | undefined = ref.summary === null ? undefined : getNode(ref.summary);
  const activeSummaries = summary !== undefined && summary.kind === "summary" ? [summary] : [];
  return sentIds(renderContext({ spine, activeSummaries }));
}

/**
 * Whether a reply rendered from `spine` may store its reads as a reference: every node the
 * expansion reads must be final (a streaming node's status and text still change).
 */
export function referable(spine: readonly LedgerNode[]): boolean {
  return spine.every((n) => n.status !== "streaming");
}
