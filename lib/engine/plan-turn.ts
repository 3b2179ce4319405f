import { assertNever } from "./assert-never";
import { EngineError } from "./errors";
import type { NodeId, SessionId } from "./ids";
import { isSideLeafKind } from "./side-leaf";
import type { LedgerNode, NodeLookup } from "./types";

/** The three ways a turn starts (product.md §3, `POST .../turns` `mode`). */
export type TurnMode = "send" | "retry" | "edit";

/** A turn as requested (`POST .../turns`), with the session state it is checked against. */
export interface TurnRequest {
  readonly sessionId: SessionId;
  readonly mode: TurnMode;
  /** The session's HEAD when the turn is planned. */
  readonly headId: NodeId | null;
  /** `send` only: where to fork from instead of HEAD. */
  readonly parentId?: NodeId | undefined;
  /** `retry`: the reply to redo, or the user message to answer again; `edit`: the user message to replace. */
  readonly targetId?: NodeId | undefined;
  /** The turn's head policy: false for a spawned sub-agent turn. */
  readonly advanceHead: boolean;
  /** A head-advancing turn of this session is still streaming. */
  readonly turnInProgress: boolean;
  readonly getNode: NodeLookup;
}

/** Where the turn's writes go and how HEAD follows them. */
export interface TurnPlan {
  /** The predecessor of the first node the turn writes. */
  readonly predecessorId: NodeId;
  /** `send` and `edit` write a user node first; `retry` writes only a new reply. */
  readonly writesUserNode: boolean;
  /** The first write does not extend HEAD's chain: it opens a branch. */
  readonly opensFork: boolean;
  /**
   * The user asked for this fork, so HEAD follows it: the TurnWriter calls
   * `setHead(firstNode, "fork")` right after the first write. Every later write of the turn
   * extends the chain and advances HEAD by {@link shouldAdvanceHead}.
   */
  readonly forkMovesHead: boolean;
}

function sessionNode(request: TurnRequest, id: NodeId, role: string): LedgerNode {
  const node = request.getNode(id);
  if (node === undefined || node.sessionId !== request.sessionId) {
    throw new EngineError("node_not_found", `No ${role} ${id} in session ${request.sessionId}.`);
  }
  return node;
}

/** A turn may hang only off a finished conversation node. */
function requireAnchor(node: LedgerNode): NodeId {
  if (isSideLeafKind(node.kind)) {
    throw new EngineError(
      "invalid_target",
      `Node ${node.id} is a ${node.kind}; a conversation cannot continue from a side leaf.`,
    );
  }
  if (node.status === "streaming") {
    throw new EngineError("turn_in_progress", `Node ${node.id} is still streaming.`);
  }
  return node.id;
}

/** The predecessor of a retry's or edit's target: the new node is written beside it. */
function besideTarget(request: TurnRequest, kind: "user" | "assistant"): NodeId {
  if (request.targetId === undefined) {
    throw new EngineError("invalid_request", `A ${request.mode} needs a targetId.`);
  }
  const target = sessionNode(request, request.targetId, "target");
  const what = kind === "user" ? "a user message" : "a reply";
  if (target.kind !== kind || target.predecessorId === null) {
    throw new EngineError(
      "invalid_target",
      `A ${request.mode} targets ${what}; ${target.id} is a ${target.kind}.`,
    );
  }
  return target.predecessorId;
}

/**
 * Where a retry's reply goes: beside the reply it redoes, or — when the target is a user
 * message — under that message ([R180]): "Generate a reply" on a checked-out message, which
 * may have replies on other branches or none at all.
 */
function retryParent(request: TurnRequest): NodeId {
  if (request.targetId !== undefined) {
    const target = request.getNode(request.targetId);
    if (target?.kind === "user" && target.sessionId === request.sessionId) return target.id;
  }
  return besideTarget(request, "assistant");
}

function plan(request: TurnRequest, predecessorId: NodeId, writesUserNode: boolean): TurnPlan {
  const opensFork = predecessorId !== request.headId;
  return {
    predecessorId,
    writesUserNode,
    opensFork,
    forkMovesHead: opensFork && request.advanceHead,
  };
}

/**
 * Decides where a turn attaches and whether it may start, before anything is written.
 *
 * - One head-advancing turn per session at a time: another while a reply streams is
 *   `turn_in_progress` (409), wherever it would attach — two turns racing for HEAD would
 *   make the transcript jump. Spawned turns (`advanceHead=false`) are always admitted: they
 *   run while their caller's turn is in progress by definition.
 * - `send` attaches at HEAD, or under `parentId` (a fork); `retry` writes a new reply beside
 *   the target reply (same predecessor), or under the target when it is a user message
 *   ([R180]); `edit` writes a new user message beside the target.
 *
 * @throws EngineError `turn_in_progress`, `invalid_request` (missing target, `parentId` on
 *   a retry/edit, no HEAD), `node_not_found`, `invalid_target` (wrong kind, side leaf).
 */
export function planTurn(request: TurnRequest): TurnPlan {
  if (request.turnInProgress && request.advanceHead) {
    throw new EngineError(
      "turn_in_progress",
      "A reply is still streaming in this session; stop it or wait for it to finish.",
    );
  }
  const mode = request.mode;
  switch (mode) {
    case "send": {
      if (request.targetId !== undefined) {
        throw new EngineError("invalid_request", "A send takes parentId, not targetId.");
      }
      const anchorId = request.parentId ?? request.headId;
      if (anchorId === null) throw new EngineError("invalid_request", "The session has no HEAD.");
      return plan(request, requireAnchor(sessionNode(request, anchorId, "parent")), true);
    }
    case "retry":
    case "edit": {
      if (request.parentId !== undefined) {
        throw new EngineError("invalid_request", `A ${mode} takes targetId, not parentId.`);
      }
      const parentId = mode === "retry" ? retryParent(request) : besideTarget(request, "user");
      return plan(
        request,
        requireAnchor(sessionNode(request, parentId, "parent")),
        mode === "edit",
      );
    }
    default:
      return assertNever(mode, "turn mode");
  }
}
