import { asNodeId, asSessionId, tokens, type NodeId } from "./ids";
import type { LedgerNode, NodeKind, NodeMetadata, NodeStatus } from "./types";
import type { WireNode, WirePartial } from "./wire-node";

/**
 * A message from the server that is not what its name promises: `path` says where
 * (`delta.offset`), the message what was expected and what came. Thrown by the decoders
 * of the turn stream and the session channel, so a malformed event is refused by name
 * instead of landing half-read in the browser's store.
 */
export class WireDecodeError extends Error {
  override readonly name = "WireDecodeError";
  constructor(
    readonly path: string,
    expected: string,
    got: unknown,
  ) {
    super(`Malformed server event: ${path} should be ${expected}, got ${describe(got)}.`);
  }
}

function describe(x: unknown): string {
  if (x === undefined) return "nothing";
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "string") return `"${x.length > 40 ? `${x.slice(0, 39)}…` : x}"`;
  if (typeof x === "object") return "an object";
  return `${typeof x} ${String(x)}`;
}

/** A JSON object's fields, read one by one with their path for the error. */
export type Fields = Readonly<Record<string, unknown>>;

function isFields(x: unknown): x is Fields {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** `x` as an object, or a {@link WireDecodeError} at `path`. */
export function objectAt(x: unknown, path: string): Fields {
  if (!isFields(x)) throw new WireDecodeError(path, "an object", x);
  return x;
}

/** Parses an event's `data:` text; refuses text that is not JSON. */
export function parseData(data: string, path: string): unknown {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed;
  } catch {
    throw new WireDecodeError(path, "JSON", data);
  }
}

export function stringAt(o: Fields, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== "string") throw new WireDecodeError(`${path}.${key}`, "a string", v);
  return v;
}

/** A non-empty string: an id. */
function idTextAt(o: Fields, key: string, path: string): string {
  const v = stringAt(o, key, path);
  if (v === "") throw new WireDecodeError(`${path}.${key}`, "an id", v);
  return v;
}

export function idAt(o: Fields, key: string, path: string): NodeId {
  return asNodeId(idTextAt(o, key, path));
}

export function nullableIdAt(o: Fields, key: string, path: string): NodeId | null {
  const v = o[key];
  if (v === null) return null;
  if (typeof v !== "string" || v === "") {
    throw new WireDecodeError(`${path}.${key}`, "an id or null", v);
  }
  return asNodeId(v);
}

/** A whole number ≥ 0 (a seq, an offset, a token count). */
export function countAt(o: Fields, key: string, path: string): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw new WireDecodeError(`${path}.${key}`, "a whole number ≥ 0", v);
  }
  return v;
}

export function oneOfAt<const T extends string>(
  o: Fields,
  key: string,
  allowed: readonly T[],
  path: string,
): T {
  const v = o[key];
  const hit = allowed.find((a) => a === v);
  if (hit === undefined) {
    throw new WireDecodeError(`${path}.${key}`, `one of ${allowed.join(", ")}`, v);
  }
  return hit;
}

export function idsAt(o: Fields, key: string, path: string): NodeId[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new WireDecodeError(`${path}.${key}`, "a list of ids", v);
  const list: readonly unknown[] = v;
  return list.map((id, i) => {
    if (typeof id !== "string" || id === "") {
      throw new WireDecodeError(`${path}.${key}.${i}`, "an id", id);
    }
    return asNodeId(id);
  });
}

/** Every node kind. */
export const NODE_KINDS: readonly NodeKind[] = [
  "root",
  "user",
  "assistant",
  "tool",
  "summary",
  "notice",
];
const STATUSES: readonly NodeStatus[] = ["complete", "streaming", "interrupted", "error"];
const PARTIALS: readonly WirePartial[] = ["reads", "skeleton"];

function listAt(o: Fields, key: string, path: string): readonly unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new WireDecodeError(`${path}.${key}`, "a list", v);
  return v;
}

function checkFields(
  x: unknown,
  path: string,
  strings: readonly string[],
  counts: readonly string[] = [],
): Fields {
  const o = objectAt(x, path);
  for (const key of strings) stringAt(o, key, path);
  for (const key of counts) countAt(o, key, path);
  return o;
}

/**
 * Checks the metadata keys with a fixed meaning (`NodeMetadata`); other keys travel as the
 * engine wrote them (the type is open). A predicate: the object itself is kept.
 */
function isMetadata(m: Fields, path: string): m is NodeMetadata {
  if (m["tool_calls"] !== undefined) {
    listAt(m, "tool_calls", path).forEach((c, i) =>
      checkFields(c, `${path}.tool_calls.${i}`, ["id", "name", "arguments"]),
    );
  }
  if (m["covers_ids"] !== undefined) idsAt(m, "covers_ids", path);
  if (m["error"] !== undefined) checkFields(m["error"], `${path}.error`, ["code", "message"]);
  if (m["usage"] !== undefined) {
    checkFields(m["usage"], `${path}.usage`, [], ["promptTokens", "completionTokens"]);
  }
  if (m["attachments"] !== undefined) {
    listAt(m, "attachments", path).forEach((a, i) =>
      checkFields(
        a,
        `${path}.attachments.${i}`,
        ["id", "name", "mime", "sha256"],
        ["size", "tokens"],
      ),
    );
  }
  for (const key of ["model", "finish_reason", "tool_call_id"]) {
    if (m[key] !== undefined) stringAt(m, key, path);
  }
  return true;
}

function metadataAt(o: Fields, path: string): NodeMetadata {
  const m = objectAt(o["metadata"], `${path}.metadata`);
  if (!isMetadata(m, `${path}.metadata`)) throw new WireDecodeError(path, "metadata", m);
  return m;
}

/** A node as the routes, events and the turn stream carry it ({@link WireNode}). */
export function wireNodeAt(x: unknown, path: string): WireNode {
  const o = objectAt(x, path);
  const node: LedgerNode = {
    id: idAt(o, "id", path),
    sessionId: asSessionId(idTextAt(o, "sessionId", path)),
    predecessorId: nullableIdAt(o, "predecessorId", path),
    seq: countAt(o, "seq", path),
    kind: oneOfAt(o, "kind", NODE_KINDS, path),
    content: stringAt(o, "content", path),
    status: oneOfAt(o, "status", STATUSES, path),
    callerId: nullableIdAt(o, "callerId", path),
    metadata: metadataAt(o, path),
    reads: idsAt(o, "reads", path),
    tokenCount: tokens(countAt(o, "tokenCount", path)),
    createdAt: stringAt(o, "createdAt", path),
  };
  if (o["partial"] === undefined) return node;
  return { ...node, partial: oneOfAt(o, "partial", PARTIALS, path) };
}
