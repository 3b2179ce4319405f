import { z } from "zod";
import { EngineError } from "../engine/errors";
import type { NodeId } from "../engine/ids";
import type { LedgerNode, NodeMetadata, SessionMeta, SessionRecord } from "../engine/types";

/** The JSON export of one session: the whole ledger, append-only history included. */
export interface LedgerFile {
  readonly format: "spindle.ledger";
  readonly version: 1;
  readonly exportedAt: string;
  readonly session: SessionRecord;
  readonly nodes: readonly LedgerNode[];
}

export function toLedgerFile(
  session: SessionRecord,
  nodes: readonly LedgerNode[],
  now: Date,
): LedgerFile {
  return { format: "spindle.ledger", version: 1, exportedAt: now.toISOString(), session, nodes };
}

const id = z.string().min(1).max(64);
const nodeSchema = z.object({
  id,
  predecessorId: id.nullable(),
  seq: z.number().int().min(0),
  kind: z.enum(["root", "user", "assistant", "tool", "summary", "notice"]),
  content: z.string(),
  status: z.enum(["complete", "streaming", "interrupted", "error"]),
  callerId: id.nullable(),
  metadata: z.record(z.string(), z.unknown()),
  reads: z.array(id),
  tokenCount: z.number().int().min(0).optional(),
  createdAt: z.iso.datetime({ offset: true }),
});

export const ledgerFileSchema = z.object({
  format: z.literal("spindle.ledger"),
  version: z.literal(1),
  session: z.object({
    title: z.string().max(200),
    headId: id.nullable(),
    meta: z.record(z.string(), z.unknown()),
  }),
  nodes: z.array(nodeSchema).min(1).max(200_000),
});

export type ParsedLedgerFile = z.infer<typeof ledgerFileSchema>;

export interface ImportPlan {
  readonly title: string;
  readonly headId: NodeId;
  readonly rootId: NodeId;
  readonly meta: SessionMeta;
  /** Nodes with fresh ids, in seq order; `sessionId` is filled by the store. */
  readonly nodes: readonly Omit<LedgerNode, "sessionId">[];
}

/**
 * Re-ids an exported ledger for import as a new session, checking that it is one tree:
 * exactly one ROOT, every predecessor and caller present, no cycle. covers_ids, reads and
 * the active-summary pointer are translated; a node left `streaming` arrives `interrupted`.
 */
export function planImport(file: ParsedLedgerFile, newId: () => NodeId): ImportPlan {
  const byOld = new Map(file.nodes.map((n) => [n.id, n] as const));
  if (byOld.size !== file.nodes.length) throw invalid("duplicate node ids");
  const roots = file.nodes.filter((n) => n.kind === "root");
  if (roots.length !== 1 || roots[0]?.predecessorId !== null)
    throw invalid("exactly one ROOT, with no predecessor");
  const fresh = new Map<string, NodeId>();
  for (const n of [...file.nodes].sort((a, b) => a.seq - b.seq)) fresh.set(n.id, newId());
  const map = (old: string, what: string): NodeId => {
    const v = fresh.get(old);
    if (!v) throw invalid(`${what} ${old} names no node of the file`);
    return v;
  };
  // Every chain must reach ROOT without revisiting a node. Nodes already known to reach
  // ROOT end a walk early, so the whole check is linear in the ledger.
  const reachesRoot = new Set<string>([roots[0]?.id ?? ""]);
  for (const n of file.nodes) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: (typeof file.nodes)[number] | undefined = n;
    while (cur && !reachesRoot.has(cur.id)) {
      if (onPath.has(cur.id)) throw invalid(`a cycle through ${cur.id}`);
      onPath.add(cur.id);
      path.push(cur.id);
      if (cur.predecessorId === null)
        throw invalid(`node ${cur.id} has no predecessor but is not ROOT`);
      cur = byOld.get(cur.predecessorId);
      if (!cur) throw invalid(`node ${n.id} has a missing predecessor`);
    }
    for (const id of path) reachesRoot.add(id);
  }
  const nodes = [...file.nodes]
    .sort((a, b) => a.seq - b.seq)
    .map((n, seq) => {
      const metadata: Record<string, unknown> = { ...n.metadata };
      if (Array.isArray(metadata["covers_ids"])) {
        metadata["covers_ids"] = (metadata["covers_ids"] as unknown[])
          .map(String)
          .filter((c) => fresh.has(c))
          .map((c) => map(c, "covers_ids entry"));
      }
      return {
        id: map(n.id, "node"),
        predecessorId: n.predecessorId === null ? null : map(n.predecessorId, "predecessor"),
        seq,
        kind: n.kind,
        content: n.content,
        status: n.status === "streaming" ? ("interrupted" as const) : n.status,
        callerId: n.callerId === null ? null : map(n.callerId, "caller"),
        metadata: metadata as NodeMetadata,
        reads: n.reads.filter((r) => fresh.has(r)).map((r) => map(r, "read")),
        tokenCount: (n.tokenCount ?? 0) as LedgerNode["tokenCount"],
        createdAt: n.createdAt,
      };
    });
  const meta: Record<string, unknown> = { ...file.session.meta };
  const last = meta["_last_summary_id"];
  if (typeof last === "string") {
    if (fresh.has(last)) meta["_last_summary_id"] = map(last, "summary");
    else {
      delete meta["_last_summary_id"];
      delete meta["_last_summary_text"];
    }
  }
  const rootId = map(roots[0]?.id ?? "", "root");
  const head = file.session.headId;
  const headNode = head === null ? undefined : byOld.get(head);
  if (headNode && (headNode.kind === "summary" || headNode.kind === "notice")) {
    throw invalid("HEAD names a summary or notice");
  }
  return {
    title: file.session.title || "Imported chat",
    headId: head !== null && fresh.has(head) ? map(head, "head") : rootId,
    rootId,
    meta: meta as SessionMeta,
    nodes,
  };
}

function invalid(what: string): EngineError {
  return new EngineError("invalid_request", `The ledger file is not valid: ${what}.`);
}
