import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import { isSideLeafKind } from "./side-leaf";
import type { LedgerNode } from "./types";

/** Two branches from the node where they part (issue 20's compare view). */
export interface BranchComparison<N extends LedgerNode = LedgerNode> {
  /** The last node both branches share: where they fork. */
  readonly forkId: NodeId;
  /**
   * Each branch from the fork's child down to the node compared, in order; row `i` of one
   * is aligned with row `i` of the other. One is empty when its node is the fork itself
   * (the other node continues the same branch).
   */
  readonly a: readonly N[];
  readonly b: readonly N[];
}

/**
 * Lines up two nodes' branches from their fork point ([R181]). `spineA` and `spineB` are
 * the predecessor spines of the two nodes compared, ROOT first: in a tree they share a
 * prefix, whose last node is the fork. Linear in the spines' length.
 *
 * @throws EngineError `invalid_request` for a node compared with itself, `invalid_target`
 *   for a summary or a notice (side leaves: no branch runs through them) and
 *   `invalid_ledger` for spines that do not meet at ROOT.
 */
export function compareBranches<N extends LedgerNode>(
  spineA: readonly N[],
  spineB: readonly N[],
): BranchComparison<N> {
  const a = spineA.at(-1);
  const b = spineB.at(-1);
  if (a === undefined || b === undefined) {
    throw new EngineError("invalid_request", "Compare needs two nodes.");
  }
  if (a.id === b.id) {
    throw new EngineError("invalid_request", "Pick two different nodes to compare.");
  }
  for (const end of [a, b]) {
    if (isSideLeafKind(end.kind)) {
      throw new EngineError(
        "invalid_target",
        `Node ${end.id} is a ${end.kind}; only conversation turns have a branch to compare.`,
      );
    }
  }
  let shared = 0;
  while (
    shared < spineA.length &&
    shared < spineB.length &&
    spineA[shared]?.id === spineB[shared]?.id
  ) {
    shared += 1;
  }
  const fork = spineA[shared - 1];
  if (fork === undefined) {
    throw new EngineError("invalid_ledger", "The two branches do not meet at ROOT.");
  }
  return { forkId: fork.id, a: spineA.slice(shared), b: spineB.slice(shared) };
}
