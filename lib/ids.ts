import { monotonicFactory } from "ulid";
import { asNodeId, asSessionId, type NodeId, type SessionId } from "./engine/ids";

// ULIDs sort by creation time and stay monotonic within a millisecond, so ids minted by one
// process order like their inserts. The engine never mints ids; it receives them from here.
const next = monotonicFactory();

export function newNodeId(now = Date.now()): NodeId {
  return asNodeId(next(now));
}

export function newSessionId(now = Date.now()): SessionId {
  return asSessionId(next(now));
}
