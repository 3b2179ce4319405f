import type { Db } from "../db/client";
import type { DatabaseKind } from "../config/env";
import type { OwnerId } from "../engine/ids";
import { fts5Match, tsQuery, type SearchTerms } from "../search/search-terms";

/**
 * The search queries in both dialects, over the indexes the search migrations keep
 * (prisma/migrations/*_search, prisma/postgres/migrations/*_search): FTS5 with bm25 on
 * SQLite, `tsvector` with ts_rank on PostgreSQL; nodes, their text attachments, titles. Every query is a parameterised tagged
 * template; the owner is filtered inside the SQL, so another account's text never leaves
 * the database. The query text is built by lib/search/search-terms.ts (quoted words only).
 */

/** A node match: best rank first, then newest. */
export interface NodeMatchRow {
  id: string;
  sessionId: string;
  kind: string;
  seq: number | bigint;
  /** The indexed part of the text: the first 100,000 characters, the migrations' bound. */
  content: string;
  metadata: string;
  title: string;
  updatedAt: Date | string | number;
  /** Set when the node's best match is in one of its text attachments ([R279]). */
  attachmentId: string | null;
}

export interface TitleMatchRow {
  id: string;
  title: string;
  updatedAt: Date | string | number;
}

/** A text attachment as its index entry reads: its name, then its text, up to the bound. */
export interface AttachmentTextRow {
  id: string;
  name: string;
  text: string;
}

/**
 * Nodes whose text, or one of whose text attachments ([R279]), matches: each node once, at
 * its best-ranked match, which also says where the snippet comes from. The owner narrows both
 * indexes before anything is ranked (FTS5 through the owner key, PostgreSQL in each arm's
 * join), so the cost follows the caller's text.
 */
export function nodeMatches(
  db: Db,
  kind: DatabaseKind,
  input: { ownerId: OwnerId; terms: SearchTerms; limit: number; offset: number },
): Promise<NodeMatchRow[]> {
  const { ownerId, terms, limit, offset } = input;
  if (kind === "postgresql") {
    // The query is written out in each arm, not shared through a CTE: as a constant it
    // filters each index probe (measured: 1.4× slower through a CTE).
    const query = tsQuery(terms);
    return db.$queryRaw<NodeMatchRow[]>`
      WITH "hits" AS (
        SELECT x."nodeId", NULL::text AS "attachmentId", ts_rank(x."document", q) AS "rank"
          FROM "node_search" x
          CROSS JOIN to_tsquery('simple', ${query}) AS q
          JOIN "Node" n ON n."id" = x."nodeId"
          JOIN "Session" s ON s."id" = n."sessionId"
         WHERE x."document" @@ q AND s."ownerId" = ${ownerId}
        UNION ALL
        SELECT y."nodeId", y."attachmentId", ts_rank(y."document", q)
          FROM "attachment_search" y
          CROSS JOIN to_tsquery('simple', ${query}) AS q
          JOIN "Attachment" a ON a."id" = y."attachmentId"
          JOIN "Session" s ON s."id" = a."sessionId"
         WHERE y."document" @@ q AND s."ownerId" = ${ownerId}
      ),
      "best" AS (
        SELECT DISTINCT ON ("nodeId") "nodeId", "attachmentId", "rank"
          FROM "hits" ORDER BY "nodeId", "rank" DESC, "attachmentId" NULLS FIRST
      )
      SELECT n."id", n."sessionId", n."kind", n."seq", left(n."content", 100000) AS "content",
             n."metadata", s."title", s."updatedAt", b."attachmentId"
        FROM "best" b
        JOIN "Node" n ON n."id" = b."nodeId"
        JOIN "Session" s ON s."id" = n."sessionId"
       ORDER BY b."rank" DESC, n."createdAt" DESC, n."id" DESC
       LIMIT ${limit} OFFSET ${offset}`;
  }
  const match = fts5Match(terms, "content", ownerId);
  // One row per node: SQLite takes a bare column of a min() group from the row holding the
  // minimum, so "attachmentId" names where the best (lowest) bm25 matched. CROSS JOIN fixes
  // the join order: from the matches to their nodes by id — left to itself the planner
  // walked every node of the caller's sessions (bench/search.bench.ts).
  return db.$queryRaw<NodeMatchRow[]>`
    WITH "hits" AS (
      SELECT "node_id" AS "nodeId", NULL AS "attachmentId", bm25("node_fts") AS "rank"
        FROM "node_fts" WHERE "node_fts" MATCH ${match}
      UNION ALL
      SELECT "node_id", "attachment_id", bm25("attachment_fts")
        FROM "attachment_fts" WHERE "attachment_fts" MATCH ${match}
    ),
    "best" AS (
      SELECT "nodeId", "attachmentId", min("rank") AS "rank" FROM "hits" GROUP BY "nodeId"
    )
    SELECT n."id", n."sessionId", n."kind", n."seq", substr(n."content", 1, 100000) AS "content",
           n."metadata", s."title", s."updatedAt", b."attachmentId"
      FROM "best" b
      CROSS JOIN "Node" n ON n."id" = b."nodeId"
      CROSS JOIN "Session" s ON s."id" = n."sessionId"
     WHERE s."ownerId" = ${ownerId}
     ORDER BY b."rank", n."createdAt" DESC, n."id" DESC
     LIMIT ${limit} OFFSET ${offset}`;
}

/** The indexed text of these attachments (the snippets of hits in files), owner checked. */
export function attachmentTexts(
  db: Db,
  kind: DatabaseKind,
  ownerId: OwnerId,
  ids: readonly string[],
): Promise<AttachmentTextRow[]> {
  const list = JSON.stringify(ids);
  return kind === "postgresql"
    ? db.$queryRaw<AttachmentTextRow[]>`
        SELECT a."id", a."name", left(a."name" || chr(10) || b."text", 100000) AS "text"
          FROM "Attachment" a
          JOIN "Blob" b ON b."sessionId" = a."sessionId" AND b."sha256" = a."sha256"
          JOIN "Session" s ON s."id" = a."sessionId"
         WHERE a."id" IN (SELECT jsonb_array_elements_text(${list}::jsonb))
           AND s."ownerId" = ${ownerId} AND b."text" IS NOT NULL`
    : db.$queryRaw<AttachmentTextRow[]>`
        SELECT a."id", a."name", substr(a."name" || char(10) || b."text", 1, 100000) AS "text"
          FROM "Attachment" a
          JOIN "Blob" b ON b."sessionId" = a."sessionId" AND b."sha256" = a."sha256"
          JOIN "Session" s ON s."id" = a."sessionId"
         WHERE a."id" IN (SELECT value FROM json_each(${list}))
           AND s."ownerId" = ${ownerId} AND b."text" IS NOT NULL`;
}

export function titleMatches(
  db: Db,
  kind: DatabaseKind,
  input: { ownerId: OwnerId; terms: SearchTerms; limit: number },
): Promise<TitleMatchRow[]> {
  const { ownerId, terms, limit } = input;
  if (kind === "postgresql") {
    return db.$queryRaw<TitleMatchRow[]>`
      SELECT s."id", s."title", s."updatedAt"
        FROM "session_search" x
        CROSS JOIN to_tsquery('simple', ${tsQuery(terms)}) AS q
        JOIN "Session" s ON s."id" = x."sessionId"
       WHERE x."document" @@ q AND s."ownerId" = ${ownerId}
       ORDER BY ts_rank(x."document", q) DESC, s."updatedAt" DESC, s."id" DESC
       LIMIT ${limit}`;
  }
  return db.$queryRaw<TitleMatchRow[]>`
    SELECT s."id", s."title", s."updatedAt"
      FROM "session_fts"
      JOIN "Session" s ON s."id" = "session_fts"."session_id"
     WHERE "session_fts" MATCH ${fts5Match(terms, "title", ownerId)} AND s."ownerId" = ${ownerId}
     ORDER BY bm25("session_fts"), s."updatedAt" DESC, s."id" DESC
     LIMIT ${limit}`;
}

/**
 * Which of `nodeIds` lie on the HEAD spine of their session, for the sessions named: one
 * recursive walk up from each HEAD (its cost follows the spines, not the ledgers).
 */
export async function onHeadSpines(
  db: Db,
  kind: DatabaseKind,
  sessionIds: readonly string[],
  nodeIds: readonly string[],
): Promise<Set<string>> {
  if (sessionIds.length === 0 || nodeIds.length === 0) return new Set();
  const sessions = JSON.stringify(sessionIds);
  const nodes = JSON.stringify(nodeIds);
  const rows =
    kind === "postgresql"
      ? await db.$queryRaw<{ id: string }[]>`
          WITH RECURSIVE spine("id", "pred") AS (
            SELECT n."id", n."predecessorId" FROM "Session" s JOIN "Node" n ON n."id" = s."headId"
             WHERE s."id" IN (SELECT jsonb_array_elements_text(${sessions}::jsonb))
            UNION ALL
            SELECT n."id", n."predecessorId" FROM "Node" n JOIN spine p ON n."id" = p."pred"
          )
          SELECT "id" FROM spine WHERE "id" IN (SELECT jsonb_array_elements_text(${nodes}::jsonb))`
      : await db.$queryRaw<{ id: string }[]>`
          WITH RECURSIVE spine("id", "pred") AS (
            SELECT n."id", n."predecessorId" FROM "Session" s JOIN "Node" n ON n."id" = s."headId"
             WHERE s."id" IN (SELECT value FROM json_each(${sessions}))
            UNION ALL
            SELECT n."id", n."predecessorId" FROM "Node" n JOIN spine p ON n."id" = p."pred"
          )
          SELECT "id" FROM spine WHERE "id" IN (SELECT value FROM json_each(${nodes}))`;
  return new Set(rows.map((r) => r.id));
}
