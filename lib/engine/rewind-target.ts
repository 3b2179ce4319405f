import { EngineError } from "./errors";
import type { NodeId, SessionId } from "./ids";
import { spineOf } from "./spine-of";
import type { LedgerNode, NodeLookup } from "./types";

/** A rewind request and the session state it is checked against. */
export interface RewindInput {
  readonly sessionId: SessionId;
  readonly headId: NodeId | null;
  readonly targetId: NodeId;
  readonly getNode: NodeLookup;
}

/**
 * Validates a rewind and returns the target: rewind moves HEAD back along its own spine
 * only (product.md §3). Moving anywhere else is a checkout. Cost follows the spine.
 *
 * @throws EngineError `node_not_found` when the target is not a node of the session;
 *   `node_not_on_spine` when it is, but off HEAD's spine.
 */
export function rewindTarget(input: RewindInput): LedgerNode {
  const target = input.getNode(input.targetId);
  if (target === undefined || target.sessionId !== input.sessionId) {
    throw new EngineError(
      "node_not_found",
      `No node ${input.targetId} in session ${input.sessionId}.`,
    );
  }
  const spine = input.headId === null ? [] : spineOf(input.headId, input.getNode);
  if (!spine.some((node) => node.id === target.id)) {
    throw new EngineError(
      "node_not_on_spine",
      `Node ${input.targetId} is not on HEAD's spine; use checkout to move elsewhere.`,
    );
  }
  return target;
}
