import { coversIdsOf } from "./covers-ids-of";
import type { NodeId } from "./ids";
import type { LedgerIndex } from "./ledger-index";
import { isSideLeafKind } from "./side-leaf";
import { innerSummaryIds, isNestedSummary, turnsOf } from "./summary-turns";
import type { LedgerNode } from "./types";

/** What the graph folds into a summary's capsule, and which branches carry it. */
export interface CapsuleCoverage {
  /**
   * The row's `covers_ids` (compaction.md §6): `metadata.covers_ids` verbatim, extended with
   * the caller subtrees of covered turns, minus ids that no longer exist. Never a summary id
   * — except on a nested summary, whose capsule folds the summaries it names (those that
   * exist), each of which folds its own turns.
   */
  readonly coversIds: readonly NodeId[];
  /**
   * The deepest node of the covered segment, when the whole segment still exists on one
   * chain: the summary applies to renderings from exactly this node and its descendants.
   * `null` when it applies to no branch (part of the segment was deleted, or it is empty).
   */
  readonly tipId: NodeId | null;
}

/**
 * The segment's deepest node, found without assuming anything about the order of
 * `covers_ids`: depths are memoised while walking up, so every ancestor is visited once.
 */
function segmentTip(segment: readonly NodeId[], index: LedgerIndex): NodeId | null {
  if (segment.length === 0) return null;
  const depth = new Map<NodeId, number>();
  let deepest: LedgerNode | undefined;
  let deepestDepth = -1;
  for (const id of segment) {
    const start = index.get(id);
    if (start === undefined || start.kind === "root") return null;
    const path: LedgerNode[] = [];
    let node: LedgerNode | undefined = start;
    while (node !== undefined && !depth.has(node.id) && node.predecessorId !== null) {
      if (path.length > index.nodes.length) return null;
      path.push(node);
      node = index.get(node.predecessorId);
    }
    if (node === undefined) return null;
    let d = depth.get(node.id) ?? 0;
    depth.set(node.id, d);
    for (let i = path.length - 1; i >= 0; i -= 1) {
      const step = path[i];
      if (step !== undefined) depth.set(step.id, (d += 1));
    }
    const startDepth = depth.get(start.id) ?? 0;
    if (startDepth > deepestDepth) {
      deepest = start;
      deepestDepth = startDepth;
    }
  }
  if (deepest === undefined) return null;
  // The segment applies to a branch only if all of it lies on the deepest node's spine.
  const wanted = new Set(segment);
  let found = 0;
  for (let node: LedgerNode | undefined = deepest; node !== undefined;) {
    if (wanted.has(node.id)) found += 1;
    node = node.predecessorId === null ? undefined : index.get(node.predecessorId);
  }
  return found === wanted.size ? deepest.id : null;
}

/**
 * The capsule of summary `summary` over the ledger `index` (compaction.md §6, graph.md).
 *
 * Caller subtrees: every node whose callerId is already folded — a spawned sub-agent branch
 * of a covered turn — joins with all its descendants, recursively. Tool results are not
 * expansion roots: they continue their call's chain and are covered with it, and following
 * their descendants would fold the kept tail. No seq arithmetic, nothing depends on HEAD.
 * Linear in the ledger.
 */
export function capsuleCoverage(summary: LedgerNode, index: LedgerIndex): CapsuleCoverage {
  if (isNestedSummary(summary)) {
    const inner = innerSummaryIds(summary).filter((id) => index.get(id)?.kind === "summary");
    return { coversIds: inner, tipId: segmentTip(turnsOf(summary, index.get) ?? [], index) };
  }
  const segment = coversIdsOf(summary);
  const folded = new Set<NodeId>();
  const order: NodeId[] = [];
  const fold = (node: LedgerNode): void => {
    folded.add(node.id);
    order.push(node.id);
  };
  for (const id of segment) {
    const node = index.get(id);
    if (node !== undefined && node.kind !== "summary" && !folded.has(id)) fold(node);
  }

  for (let next = 0; next < order.length; next += 1) {
    const callerId = order[next];
    if (callerId === undefined) continue;
    for (const spawned of index.calledBy(callerId)) {
      if (folded.has(spawned.id) || spawned.kind === "tool" || isSideLeafKind(spawned.kind)) {
        continue;
      }
      // The spawned branch and everything below it, in seq order, depth first.
      const stack: LedgerNode[] = [spawned];
      while (stack.length > 0) {
        const node = stack.pop();
        if (node === undefined || folded.has(node.id) || node.kind === "summary") continue;
        fold(node);
        const children = index.childrenOf(node.id);
        for (let i = children.length - 1; i >= 0; i -= 1) {
          const child = children[i];
          if (child !== undefined) stack.push(child);
        }
      }
    }
  }

  return { coversIds: order, tipId: segmentTip(segment, index) };
}
