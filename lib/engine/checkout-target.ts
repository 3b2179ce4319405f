import { EngineError } from "./errors";
import type { NodeId, SessionId } from "./ids";
import { isSideLeafKind } from "./side-leaf";
import type { LedgerNode, NodeLookup } from "./types";

/**
 * Validates a checkout (HEAD to any node) and returns the target. Any conversation node of
 * the session qualifies, whatever its status. Summaries and notices do not: they are side
 * leaves, so HEAD on one would make the next turn hang a conversation off a stand-in.
 *
 * @throws EngineError `node_not_found` (missing, or another session's node — reported the
 *   same, so ids do not leak across sessions); `node_not_checkoutable` for a side leaf.
 */
export function checkoutTarget(
  sessionId: SessionId,
  nodeId: NodeId,
  getNode: NodeLookup,
): LedgerNode {
  const node = getNode(nodeId);
  if (node === undefined || node.sessionId !== sessionId) {
    throw new EngineError("node_not_found", `No node ${nodeId} in session ${sessionId}.`);
  }
  if (isSideLeafKind(node.kind)) {
    throw new EngineError(
      "node_not_checkoutable",
      `Node ${nodeId} is a ${node.kind}: a side leaf cannot become HEAD.`,
    );
  }
  return node;
}
