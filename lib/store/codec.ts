import { asNodeId, asSessionId, tokens, type NodeId } from "../engine/ids";
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

const KINDS: ReadonlySet<string> = new Set<NodeKind>([
  "root",
  "user",
  "assistant",
  "tool",
  "summary",
  "notice",
]);
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

export function nodeFromRow(row: NodeRow): LedgerNode {
  if (!KINDS.has(row.kind)) throw new Error(`corrupt node ${row.id}: kind ${row.kind}`);
  if (!STATUSES.has(row.status)) throw new Error(`corrupt node ${row.id}: status ${row.status}`);
  const reads: unknown = JSON.parse(row.reads);
  if (!Array.isArray(reads)) throw new Error(`corrupt node ${row.id}: reads`);
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
    reads: reads.map((r) => asNodeId(String(r))),
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

export function encodeReads(reads: readonly NodeId[]): string {
  return JSON.stringify(reads);
}

export function encodeJson(value: unknown): string {
  return JSON.stringify(value ?? {});
}
