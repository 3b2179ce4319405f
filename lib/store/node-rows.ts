import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db/client";
import type { NodeId, SessionId } from "../engine/ids";
import type { LedgerNode } from "../engine/types";
import { expandReadsRef, readsRefKey, readsRefSummaries, type ReadsRef } from "../engine/reads-ref";
import { loadInnerSummaries } from "../engine/summary-turns";
import { nodeFromRow, readsRefOf, type NodeRow } from "./codec";
import type { Tx } from "./store-context";
/**
 * The part of one session's ledger a plan reads, by structure: each read is a walk of the
 * (sessionId, predecessorId) index or the primary key, so its cost follows what it returns.
 * `spineAndChildren` and `subtree` give structure only: `content` is `""` and `reads` `[]`.
 */
export interface LedgerSlice {
  /** `id`'s spine up to ROOT and every child of each of its nodes. */
  spineAndChildren(id: NodeId): Promise<LedgerNode[]>;
  /** The node and its children, by the (sessionId, predecessorId) index. */
  family(id: NodeId): Promise<LedgerNode[]>;
  /** `id` and every node under it by predecessor. */
  subtree(id: NodeId): Promise<LedgerNode[]>;
  /** These nodes of the session, whole (missing ids are left out). */
  byIds(ids: readonly NodeId[]): Promise<LedgerNode[]>;
}

/** A node's row as an append writes it: its `reads` encoded, its lease when streaming. */
export type InsertedRow = NodeRow & {
  readonly seq: number;
  readonly tokenCount: number;
  readonly leaseUntil: Date | null;
  readonly createdAt: Date;
};

/**
 * Inserts the rows in one raw statement. An append writes one or two nodes in every turn's
 * claim, where Prisma's `create` (which reads each row back) cost several times the
 * database's own work (docs/benchmarks.md).
 */
export async function insertNodeRows(tx: Tx, rows: readonly InsertedRow[]): Promise<void> {
  const values = rows.map(
    (r) => Prisma.sql`(${r.id}, ${r.sessionId}, ${r.predecessorId}, ${r.seq}, ${r.kind},
      ${r.content}, ${r.status}, ${r.callerId}, ${r.metadata}, ${r.reads}, ${r.tokenCount},
      ${r.leaseUntil}, ${r.createdAt})`,
  );
  await tx.$executeRaw`
    INSERT INTO "Node" ("id", "sessionId", "predecessorId", "seq", "kind", "content", "status",
                        "callerId", "metadata", "reads", "tokenCount", "leaseUntil", "createdAt")
    VALUES ${Prisma.join(values)}`;
}

/** Rows as nodes, each id once (a spine node is also its predecessor's child). */
function uniqueNodes(rows: readonly NodeRow[]): LedgerNode[] {
  const byId = new Map<string, LedgerNode>();
  for (const row of rows) if (!byId.has(row.id)) byId.set(row.id, nodeFromRow(row));
  return [...byId.values()];
}

/**
 * `spine(id, pred, depth)`: the walk from `headId` up its predecessors to ROOT, one indexed
 * lookup per node (depth 0 is the head), for queries that then join what they need.
 */
export function spineWalk(sessionId: SessionId, headId: NodeId): Prisma.Sql {
  return Prisma.sql`WITH RECURSIVE spine(id, pred, depth) AS (
        SELECT "id", "predecessorId", 0 FROM "Node" WHERE "id" = ${headId} AND "sessionId" = ${sessionId}
        UNION ALL
        SELECT n."id", n."predecessorId", s.depth + 1
          FROM "Node" n JOIN spine s ON n."id" = s.pred
         WHERE n."sessionId" = ${sessionId}
      )`;
}

/** Reads of one session's ledger by structure, inside `tx` (see {@link LedgerSlice}). */
export function sliceOf(tx: Db | Tx, sessionId: SessionId): LedgerSlice {
  // Structure only: the plans that read a slice never look at content or reads.
  const cols = Prisma.sql`n."id", n."sessionId", n."predecessorId", n."seq", n."kind",
      CAST('' AS TEXT) AS "content", n."status", n."callerId", n."metadata",
      CAST('[]' AS TEXT) AS "reads", n."tokenCount", n."createdAt"`;
  return {
    spineAndChildren: async (id) => {
      const rows = await tx.$queryRaw<NodeRow[]>`
          WITH RECURSIVE spine(id, pred) AS (
            SELECT "id", "predecessorId" FROM "Node" WHERE "id" = ${id} AND "sessionId" = ${sessionId}
            UNION ALL
            SELECT n."id", n."predecessorId" FROM "Node" n JOIN spine s ON n."id" = s.pred
             WHERE n."sessionId" = ${sessionId}
          )
          SELECT ${cols} FROM spine s JOIN "Node" n ON n."id" = s.id
          UNION ALL
          SELECT ${cols} FROM spine s
            JOIN "Node" n ON n."sessionId" = ${sessionId} AND n."predecessorId" = s.id`;
      return uniqueNodes(rows);
    },
    family: async (id) => {
      const rows = await tx.$queryRaw<NodeRow[]>`
          SELECT ${cols} FROM "Node" n WHERE n."id" = ${id} AND n."sessionId" = ${sessionId}
          UNION ALL
          SELECT ${cols} FROM "Node" n WHERE n."sessionId" = ${sessionId} AND n."predecessorId" = ${id}`;
      return uniqueNodes(rows);
    },
    subtree: async (id) => {
      const rows = await tx.$queryRaw<NodeRow[]>`
          WITH RECURSIVE below(id) AS (
            SELECT "id" FROM "Node" WHERE "id" = ${id} AND "sessionId" = ${sessionId}
            UNION ALL
            SELECT n."id" FROM "Node" n JOIN below b
                ON n."sessionId" = ${sessionId} AND n."predecessorId" = b.id
          )
          SELECT ${cols} FROM below b JOIN "Node" n ON n."id" = b.id`;
      return uniqueNodes(rows);
    },
    byIds: async (ids) => {
      if (ids.length === 0) return [];
      const rows = await tx.node.findMany({
        where: { sessionId, id: { in: [...ids] } },
        omit: { content: true, reads: true },
      });
      return rows.map((row) => nodeFromRow({ ...row, content: "", reads: "[]" }));
    },
  };
}

/**
 * Rows as full nodes: `reads` stored as a reference are expanded to the explicit list
 * ([R134]). From the rows themselves when they are the whole ledger; otherwise with one
 * recursive query for the spines of every referenced head together (shared ancestors
 * walked once) and the summaries, reading only what the rendering rule decides from —
 * never one query per node.
 */
export async function toNodes(
  db: Db | Tx,
  sessionId: SessionId,
  rows: readonly NodeRow[],
  options: { whole?: boolean } = {},
): Promise<LedgerNode[]> {
  const refs = new Map<string, ReadsRef>();
  for (const row of rows) {
    const ref = readsRefOf(row);
    if (ref) refs.set(readsRefKey(ref), ref);
  }
  if (refs.size === 0) return rows.map((r) => nodeFromRow(r));
  const lookup = new Map<string, LedgerNode>();
  if (options.whole) {
    for (const r of rows) lookup.set(r.id, nodeFromRow({ ...r, reads: "[]" }));
  } else {
    const heads = [...new Set([...refs.values()].map((r) => r.head))];
    const summaries = [...new Set([...refs.values()].flatMap((r) => readsRefSummaries(r)))];
    // The rendering needs kinds, statuses, metadata and whether a text is empty.
    const cols = Prisma.sql`n."id", n."sessionId", n."predecessorId", n."seq", n."kind",
        CASE WHEN n."content" = '' THEN '' ELSE '.' END AS "content", n."status", n."callerId",
        n."metadata", CAST('[]' AS TEXT) AS "reads", n."tokenCount", n."createdAt"`;
    const rendering = await db.$queryRaw<NodeRow[]>`
        WITH RECURSIVE up(id, pred) AS (
          SELECT "id", "predecessorId" FROM "Node"
           WHERE "sessionId" = ${sessionId} AND "id" IN (${Prisma.join(heads)})
          UNION
          SELECT n."id", n."predecessorId" FROM "Node" n JOIN up u ON n."id" = u.pred
           WHERE n."sessionId" = ${sessionId}
        )
        SELECT ${cols} FROM up u JOIN "Node" n ON n."id" = u.id
        ${
          summaries.length > 0
            ? Prisma.sql`UNION ALL SELECT ${cols} FROM "Node" n
                WHERE n."sessionId" = ${sessionId} AND n."id" IN (${Prisma.join(summaries)})`
            : Prisma.empty
        }`;
    for (const r of rendering) lookup.set(r.id, nodeFromRow(r));
    // A nested summary renders through the summaries it names ([R248]); only sessions
    // under `nested` hold one, and only they pay a query per level of nesting.
    const inner = await loadInnerSummaries(
      [...lookup.values()].filter((n) => n.kind === "summary"),
      async (ids) =>
        (
          await db.$queryRaw<NodeRow[]>`SELECT ${cols} FROM "Node" n
              WHERE n."sessionId" = ${sessionId} AND n."id" IN (${Prisma.join(ids)})`
        ).map((r) => nodeFromRow(r)),
    );
    for (const n of inner) lookup.set(n.id, n);
  }
  const expanded = new Map<string, readonly NodeId[]>();
  for (const [key, ref] of refs) {
    expanded.set(
      key,
      expandReadsRef(ref, (id) => lookup.get(id)),
    );
  }
  return rows.map((r) => nodeFromRow(r, expanded));
}
