import { asNodeId, asSessionId, tokens, type NodeId } from "../engine/ids";
import { readsRefKey, type ReadsRef } from "../engine/reads-ref";
import { NODE_KINDS } from "../engine/wire-decode";
import type {
  LedgerNode,
  NodeKind,
  NodeMetadata,
  NodeStatus,
  SessionMeta,
  SessionRecord,
} from "../engine/types";

/** The database row shapes (JSON columns are text so both providers store them alike). */
export interface NodeRow {
  id: string;
  sessionId: string;
  predecessorId: string | null;
  seq: number | bigint;
  kind: string;
  content: string;
  status: string;
  callerId: string | null;
  metadata: string;
  reads: string;
  tokenCount: number | bigint;
  createdAt: Date | string;
}

export interface SessionRow {
  id: string;
  title: string;
  headId: string | null;
  rootId: string | null;
  meta: string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

const KINDS: ReadonlySet<string> = new Set<NodeKind>(NODE_KINDS);
const STATUSES: ReadonlySet<string> = new Set<NodeStatus>([
  "complete",
  "streaming",
  "interrupted",
  "error",
]);

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function parseObject(text: string, what: string): Record<string, unknown> {
  const v: unknown = JSON.parse(text);
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new Error(`corrupt ${what}: not a JSON object`);
  }
  return v as Record<string, unknown>;
}

/**
 * A stored `reads` value: the explicit id list, or a reference to the rendering it came
 * from ([R134]: `{"head": id, "summary": id | null}`, and under an active set
 * `"summaries": [id…]` beside a null `summary`, [R248]). Both encodings are read.
 */
export function decodeReads(id: string, text: string): NodeId[] | ReadsRef {
  const v: unknown = JSON.parse(text);
  if (Array.isArray(v)) return v.map((r) => asNodeId(String(r)));
  if (v !== null && typeof v === "object") {
    const { head, summary, summaries } = v as {
      head?: unknown;
      summary?: unknown;
      summaries?: unknown;
    };
    if (typeof head === "string" && (summary === null || typeof summary === "string")) {
      const ref = { head: asNodeId(head), summary: summary === null ? null : asNodeId(summary) };
      if (summaries === undefined) return ref;
      if (Array.isArray(summaries) && summaries.every((s) => typeof s === "string")) {
        return { ...ref, summaries: summaries.map((s: string) => asNodeId(s)) };
      }
    }
  }
  throw new Error(`corrupt node ${id}: reads`);
}

/** The reference a row's `reads` hold, if they hold one (cheap: an array starts with `[`). */
export function readsRefOf(row: Pick<NodeRow, "id" | "reads">): ReadsRef | null {
  if (row.reads.startsWith("[")) return null;
  const reads = decodeReads(row.id, row.reads);
  return Array.isArray(reads) ? null : reads;
}

/**
 * A row as a node. A row whose `reads` hold a reference needs its expansion in `expanded`
 * (keyed by {@link readsRefKey}): a full node always carries the explicit list.
 */
export function nodeFromRow(
  row: NodeRow,
  expanded?: ReadonlyMap<string, readonly NodeId[]>,
): LedgerNode {
  if (!KINDS.has(row.kind)) throw new Error(`corrupt node ${row.id}: kind ${row.kind}`);
  if (!STATUSES.has(row.status)) throw new Error(`corrupt node ${row.id}: status ${row.status}`);
  const decoded = decodeReads(row.id, row.reads);
  const reads = Array.isArray(decoded) ? decoded : expanded?.get(readsRefKey(decoded));
  if (reads === undefined) throw new Error(`node ${row.id}: reads reference not expanded`);
  return {
    id: asNodeId(row.id),
    sessionId: asSessionId(row.sessionId),
    predecessorId: row.predecessorId === null ? null : asNodeId(row.predecessorId),
    seq: Number(row.seq),
    kind: row.kind as NodeKind,
    content: row.content,
    status: row.status as NodeStatus,
    callerId: row.callerId === null ? null : asNodeId(row.callerId),
    metadata: parseObject(row.metadata, `node ${row.id} metadata`) as NodeMetadata,
    reads: [...reads],
    tokenCount: tokens(Number(row.tokenCount)),
    createdAt: iso(row.createdAt),
  };
}

export function sessionFromRow(row: SessionRow): SessionRecord {
  return {
    id: asSessionId(row.id),
    title: row.title,
    headId: row.headId === null ? null : asNodeId(row.headId),
    rootId: row.rootId === null ? null : asNodeId(row.rootId),
    meta: parseObject(row.meta, `session ${row.id} meta`) as SessionMeta,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function encodeReads(reads: readonly NodeId[] | ReadsRef): string {
  if (Array.isArray(reads)) return JSON.stringify(reads);
  const ref = reads as ReadsRef;
  return JSON.stringify(
    ref.summaries === undefined
      ? { head: ref.head, summary: ref.summary }
      : { head: ref.head, summary: ref.summary, summaries: ref.summaries },
  );
}

export function encodeJson(value: unknown): string {
  return JSON.stringify(value ?? {});
}
