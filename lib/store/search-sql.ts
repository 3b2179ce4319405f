import type { Db } from "../db/client";
import type { DatabaseKind } from "../config/env";
import type { OwnerId } from "../engine/ids";
import { fts5Match, tsQuery, type SearchTerms } from "../search/search-terms";

/**
 * The search queries in both dialects, over the index the search migrations keep
 * (prisma/migrations/*_search, prisma/postgres/migrations/*_search): FTS5 with bm25 on
 * SQLite, `tsvector` with ts_rank on PostgreSQL. Every query is a parameterised tagged
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
}

export interface TitleMatchRow {
  id: string;
  title: string;
  updatedAt: Date | string | number;
}

export function nodeMatches(
  db: Db,
  kind: DatabaseKind,
  input: { ownerId: OwnerId; terms: SearchTerms; limit: number; offset: number },
): Promise<NodeMatchRow[]> {
  const { ownerId, terms, limit, offset } = input;
  if (kind === "postgresql") {
    return db.$queryRaw<NodeMatchRow[]>`
      SELECT n."id", n."sessionId", n."kind", n."seq", left(n."content", 100000) AS "content",
             n."metadata", s."title", s."updatedAt"
        FROM "node_search" x
        CROSS JOIN to_tsquery('simple', ${tsQuery(terms)}) AS q
        JOIN "Node" n ON n."id" = x."nodeId"
        JOIN "Session" s ON s."id" = n."sessionId"
       WHERE x."document" @@ q AND s."ownerId" = ${ownerId}
       ORDER BY ts_rank(x."document", q) DESC, n."createdAt" DESC, n."id" DESC
       LIMIT ${limit} OFFSET ${offset}`;
  }
  return db.$queryRaw<NodeMatchRow[]>`
    SELECT n."id", n."sessionId", n."kind", n."seq", substr(n."content", 1, 100000) AS "content",
           n."metadata", s."title", s."updatedAt"
      FROM "node_fts"
      JOIN "Node" n ON n."id" = "node_fts"."node_id"
      JOIN "Session" s ON s."id" = n."sessionId"
     WHERE "node_fts" MATCH ${fts5Match(terms, "content", ownerId)} AND s."ownerId" = ${ownerId}
     ORDER BY bm25("node_fts"), n."createdAt" DESC, n."id" DESC
     LIMIT ${limit} OFFSET ${offset}`;
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
