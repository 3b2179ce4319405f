import { z } from "zod";
import { EngineError } from "../engine/errors";
import { asNodeId, asSessionId, isIdShaped, type NodeId, type SessionId } from "../engine/ids";

/**
 * Ids arrive as untrusted strings. One that could never have been minted is reported exactly
 * like an unknown one (404), so callers cannot probe for the id format of other sessions.
 */
export function sessionIdParam(raw: string): SessionId {
  // Server actions receive whatever the caller sent, whatever the type says.
  if (typeof raw !== "string" || !isIdShaped(raw))
    throw new EngineError("session_not_found", `No session ${String(raw).slice(0, 64)}.`);
  return asSessionId(raw);
}

export function nodeIdParam(raw: string): NodeId {
  if (typeof raw !== "string" || !isIdShaped(raw))
    throw new EngineError("node_not_found", `No node ${String(raw).slice(0, 64)}.`);
  return asNodeId(raw);
}

/** A node id inside a JSON body: shape-checked, then branded. */
export const nodeIdField = z
  .string()
  .max(64)
  .transform((v) => nodeIdParam(v));

export const sessionIdField = z
  .string()
  .max(64)
  .transform((v) => sessionIdParam(v));

/** Next's dynamic route params arrive as a promise. */
export type RouteContext<P extends string> = { params: Promise<Record<P, string>> };
