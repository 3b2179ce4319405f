import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import type { LedgerNode, NodeLookup } from "./types";

/**
 * HEAD's predecessor spine: the nodes from the session's ROOT down to `headId`, ROOT first.
 *
 * Calls `getNode` once per spine node and nothing else, so the cost follows the spine's
 * length, never the size of the DAG (the store answers the same walk with one recursive
 * query; this is the in-memory form).
 *
 * @throws EngineError `node_not_found` when `headId` does not exist; `invalid_ledger` when
 *   a predecessor is missing, the walk cycles, crosses into another session, or ends
 *   anywhere but at a `root` node.
 */
export function spineOf(headId: NodeId, getNode: NodeLookup): readonly LedgerNode[] {
  const head = getNode(headId);
  if (head === undefined) throw new EngineError("node_not_found", `No node ${headId}.`);
  const upward: LedgerNode[] = [head];
  const seen = new Set<NodeId>([head.id]);
  let node = head;
  while (node.predecessorId !== null) {
    if (node.kind === "root") {
      throw new EngineError("invalid_ledger", `ROOT ${node.id} has a predecessor.`);
    }
    const predecessor = getNode(node.predecessorId);
    if (predecessor === undefined) {
      throw new EngineError(
        "invalid_ledger",
        `Node ${node.id} names a missing predecessor ${node.predecessorId}.`,
      );
    }
    if (seen.has(predecessor.id)) {
      throw new EngineError(
        "invalid_ledger",
        `The spine of ${headId} cycles at ${predecessor.id}.`,
      );
    }
    if (predecessor.sessionId !== head.sessionId) {
      throw new EngineError(
        "invalid_ledger",
        `The spine of ${headId} leaves its session at ${predecessor.id}.`,
      );
    }
    seen.add(predecessor.id);
    upward.push(predecessor);
    node = predecessor;
  }
  if (node.kind !== "root") {
    throw new EngineError("invalid_ledger", `The spine of ${headId} ends at non-root ${node.id}.`);
  }
  return upward.reverse();
}
