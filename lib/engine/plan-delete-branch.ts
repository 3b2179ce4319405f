import { activeSummaryIds, summaryPolicyOf, withActiveSet } from "./active-summaries";
import { isAttachmentOf } from "./attachment";
import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import type { LedgerIndex } from "./ledger-index";
import { retireSummaries } from "./retire-summaries";
import { isSideLeafKind } from "./side-leaf";
import { turnsOf } from "./summary-turns";
import type { LedgerNode, SessionMeta, SessionRecord, SummaryPolicy } from "./types";

/**
 * A branch delete request. `index` need not hold the whole ledger, only what the plan
 * reads ([R116]): the tip's ancestors up to the fork point and the children of each (which
 * find the branch's top, {@link findBranchTop}), everything under that top, and the active
 * summaries with the summaries nested under them. The dispatcher loads exactly that under
 * the write lock.
 */
export interface DeleteBranchInput {
  readonly session: SessionRecord;
  readonly index: LedgerIndex;
  /** The tip of the branch to delete. */
  readonly tipId: NodeId;
  readonly policy?: SummaryPolicy;
}

/**
 * What a branch delete removes and what it changes. Field names match
 * `SessionStore.removeNodes`, so `removeNodes({ sessionId, ...plan })` applies it.
 */
export interface DeleteBranchPlan {
  /** Every node to remove, in seq order: the branch and everything hanging off it. */
  readonly ids: readonly NodeId[];
  /** The surviving node the branch hung from. */
  readonly forkPointId: NodeId;
  /** HEAD after the delete: the fork point when HEAD was removed, otherwise unchanged. */
  readonly headAfter: NodeId | null;
  readonly headMoves: boolean;
  /** Active summaries that can never apply again (part of their segment is removed). */
  readonly retiredSummaryIds: readonly NodeId[];
  /** The session meta after the delete; present only when it changes. */
  readonly metaAfter?: SessionMeta;
}

function branchChildren(node: LedgerNode, index: LedgerIndex): readonly LedgerNode[] {
  return index.childrenOf(node.id).filter((child) => !isAttachmentOf(child, node));
}

/**
 * From the tip up to the topmost node only this branch holds; returns it and the fork
 * point above it: the first ancestor that is ROOT, has another branch child, or is the
 * caller a spawned branch hangs from. `loaded(id)` says whether a node and all its
 * children are in the index; the walk stops at the first node it would need that is not,
 * and returns its id instead.
 */
function walkUp(
  tip: LedgerNode,
  index: LedgerIndex,
  loaded: (id: NodeId) => boolean,
): readonly [LedgerNode, LedgerNode] | NodeId {
  let top = tip;
  for (let steps = 0; steps <= index.nodes.length; steps += 1) {
    if (top.predecessorId !== null && !loaded(top.predecessorId)) return top.predecessorId;
    const parent = top.predecessorId === null ? undefined : index.get(top.predecessorId);
    if (parent === undefined) {
      throw new EngineError("invalid_ledger", `Node ${top.id} names a missing predecessor.`);
    }
    // A spawned branch ends at its caller; a shared ancestor has another branch child.
    const shared =
      isAttachmentOf(top, parent) ||
      branchChildren(parent, index).some((child) => child.id !== top.id);
    if (parent.kind === "root" || shared) return [top, parent];
    top = parent;
  }
  throw new EngineError("invalid_ledger", `The spine of ${tip.id} cycles.`);
}

/** Where a branch delete reaches: the tip, the topmost node only it holds, the fork point. */
export interface BranchReach {
  readonly tip: LedgerNode;
  readonly top: LedgerNode;
  readonly forkPoint: LedgerNode;
}

/**
 * The checks of a branch delete and where it reaches, over an index that may hold only
 * part of the ledger: `loaded(id)` says whether a node and all its children are in it.
 * Answers `{ need }` with the next node whose family (the node and its children) the walk
 * must read, so a caller loads the branch step by step from the tip — O(branch and the
 * fork point's children), never the ledger ([R116]).
 *
 * @throws EngineError as {@link planDeleteBranch}, but `turn_in_progress`.
 */
export function findBranchTop(
  input: Pick<DeleteBranchInput, "session" | "index" | "tipId">,
  loaded: (id: NodeId) => boolean,
): { readonly reach: BranchReach } | { readonly need: NodeId } {
  const { session, index, tipId } = input;
  if (!loaded(tipId)) return { need: tipId };
  const tip = index.get(tipId);
  if (tip === undefined || tip.sessionId !== session.id) {
    throw new EngineError("node_not_found", `No node ${tipId} in session ${session.id}.`);
  }
  if (tip.kind === "root" || isSideLeafKind(tip.kind)) {
    throw new EngineError("node_not_deletable", `Node ${tipId} is a ${tip.kind}, not a branch.`);
  }
  if (branchChildren(tip, index).length > 0) {
    throw new EngineError("not_a_branch_tip", `Node ${tipId} has branches below it.`);
  }
  const walked = walkUp(tip, index, loaded);
  if (typeof walked === "string") return { need: walked };
  const [top, forkPoint] = walked;
  return { reach: { tip, top, forkPoint } };
}

/**
 * {@link findBranchTop} over an index that holds the tip's spine and the children of its
 * nodes (or the whole ledger).
 */
export function branchTop(
  input: Pick<DeleteBranchInput, "session" | "index" | "tipId">,
): BranchReach {
  const found = findBranchTop(input, () => true);
  if ("need" in found) {
    throw new EngineError("invalid_ledger", `Node ${found.need} is missing from the ledger.`);
  }
  return found.reach;
}

/**
 * Plans the delete of the branch whose tip is `tipId` (product.md §3, issue 4): the tip and
 * every ancestor that only this branch holds — walking up while the node has no other
 * branch child and is not ROOT; a spawned sub-agent branch stops at its caller — plus
 * everything hanging off them (spawned branches, notices, summaries). No surviving node is
 * left with a removed predecessor.
 *
 * HEAD moves to the fork point if it was removed. An active summary whose covered segment
 * loses a node can no longer apply to any branch (deleted ids lie on no spine), so it is
 * retired: it leaves the active set (`_last_summary_id` / `_last_summary_text` are cleared)
 * and stays as a relic; a nested one leaves the summaries it names that still hold.
 *
 * @throws EngineError `node_not_found`; `node_not_deletable` for ROOT, a summary or a
 *   notice; `not_a_branch_tip` when the node has branch children; `turn_in_progress` when
 *   a node to remove is still streaming.
 */
export function planDeleteBranch(input: DeleteBranchInput): DeleteBranchPlan {
  const { session, index } = input;
  const policy = input.policy ?? summaryPolicyOf(session.meta);
  const { top, forkPoint } = branchTop(input);

  // Everything below the topmost removed node: the branch plus its attachments' subtrees.
  const removed = new Set<NodeId>();
  const stack: LedgerNode[] = [top];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined || removed.has(node.id)) continue;
    if (node.status === "streaming") {
      throw new EngineError(
        "turn_in_progress",
        `Node ${node.id} of this branch is still streaming; stop it first.`,
      );
    }
    removed.add(node.id);
    stack.push(...index.childrenOf(node.id));
  }
  const ids = index.nodes.filter((node) => removed.has(node.id)).map((node) => node.id);

  // A summary whose segment lost a node can never apply again; one nesting it hands its
  // place to the summaries it names that still can ([R246]).
  const before = activeSummaryIds(session.meta, policy);
  const after = retireSummaries(
    before,
    (summary) =>
      removed.has(summary.id) ||
      (turnsOf(summary, index.get) ?? []).some((covered) => removed.has(covered)),
    index.get,
  );
  const retiredSummaryIds = before.filter((id) => after.retired.includes(id));
  const metaAfter =
    retiredSummaryIds.length === 0
      ? session.meta
      : withActiveSet(session.meta, after.active, policy);
  const headMoves = session.headId !== null && removed.has(session.headId);

  return {
    ids,
    forkPointId: forkPoint.id,
    headAfter: headMoves ? forkPoint.id : session.headId,
    headMoves,
    retiredSummaryIds,
    ...(metaAfter !== session.meta ? { metaAfter } : {}),
  };
}
