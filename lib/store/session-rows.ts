import { Prisma } from "../generated/prisma/client";
import { EngineError } from "../engine/errors";
import { asSessionId, LOCAL_OWNER, type OwnerId, type SessionId } from "../engine/ids";
import type { NodeKind, SessionListItem, SessionMeta, SessionRecord } from "../engine/types";
import { isSideLeafKind } from "../engine/side-leaf";
import { UNTITLED } from "../engine/session-title";
import { encodeJson, sessionFromRow, type SessionRow } from "./codec";
import { decodeListCursor, encodeListCursor } from "./list-cursor";
import type { StoreContext } from "./store-context";

export interface SessionPage {
  readonly sessions: readonly SessionListItem[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * Session rows: reading one, listing an owner's, the title and meta writes, deleting one.
 * None of them moves HEAD (that is lib/store/ledger-writes.ts, the only HEAD writer).
 */
export interface SessionRows {
  getSession(id: SessionId): Promise<SessionRecord>;
  /**
   * The account a session belongs to, or null when there is no such session. Ownership never
   * changes after creation (but for `adoptLocalSessions`), so a check made with it holds.
   */
  ownerOf(id: SessionId): Promise<OwnerId | null>;
  /** Hands the sessions made in single-user mode to the first account (first run). */
  adoptLocalSessions(ownerId: OwnerId): Promise<number>;
  listSessions(input: {
    ownerId?: OwnerId;
    limit: number;
    cursor?: string | undefined;
    q?: string | undefined;
  }): Promise<SessionPage>;
  renameSession(id: SessionId, title: string): Promise<SessionRecord>;
  setAutoTitle(id: SessionId, title: string): Promise<SessionRecord | null>;
  updateMeta(id: SessionId, patch: (meta: SessionMeta) => SessionMeta): Promise<SessionRecord>;
  deleteSession(id: SessionId): Promise<void>;
}

/** Every node kind (checked exhaustive by the type), to derive SQL lists from engine rules. */
const NODE_KINDS: Record<NodeKind, true> = {
  root: true,
  user: true,
  assistant: true,
  tool: true,
  summary: true,
  notice: true,
};
const SIDE_LEAF_KINDS = (Object.keys(NODE_KINDS) as NodeKind[]).filter(isSideLeafKind);

/** `q` as a LIKE pattern matching it literally anywhere (`\` escapes `%`, `_` and itself). */
function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class SessionRowStore implements SessionRows {
  constructor(private readonly ctx: StoreContext) {}

  async getSession(id: SessionId): Promise<SessionRecord> {
    const row = await this.ctx.db.session.findUnique({ where: { id } });
    if (!row) throw new EngineError("session_not_found", `No session ${id}.`);
    return sessionFromRow(row);
  }

  /**
   * The account a session belongs to, or null when there is no such session. Ownership never
   * changes after creation (but for `adoptLocalSessions`), so a check made with it holds.
   */
  async ownerOf(id: SessionId): Promise<OwnerId | null> {
    const row = await this.ctx.db.session.findUnique({ where: { id }, select: { ownerId: true } });
    return row ? (row.ownerId as OwnerId) : null;
  }

  /** Hands the sessions made in single-user mode to the first account (first run). */
  async adoptLocalSessions(ownerId: OwnerId): Promise<number> {
    const { count } = await this.ctx.db.session.updateMany({
      where: { ownerId: LOCAL_OWNER },
      data: { ownerId },
    });
    return count;
  }

  /**
   * One owner's sessions, most recently active first (`updatedAt` desc, `id` desc), a page
   * at a time by keyset: `cursor` is the previous page's `nextCursor`. `q` keeps titles
   * containing it, case-insensitively (ASCII letters only on SQLite), `%` and `_` literal.
   * Each row carries its node and branch counts ({@link SessionListItem}).
   *
   * @throws EngineError `invalid_request` for a cursor that is not well-formed.
   */
  async listSessions(input: {
    ownerId?: OwnerId;
    limit: number;
    cursor?: string | undefined;
    q?: string | undefined;
  }): Promise<SessionPage> {
    const ownerId = input.ownerId ?? LOCAL_OWNER;
    // A cursor is a position in the owner's order, never a reference to a row: it is not
    // looked up, so any well-formed one (another account's session id, a made-up id, a
    // deleted session's) answers the owner's sessions after it, the same way ([R141]).
    const after = input.cursor === undefined ? undefined : decodeListCursor(input.cursor);
    const where = [Prisma.sql`"ownerId" = ${ownerId}`];
    if (after) {
      where.push(
        Prisma.sql`("updatedAt" < ${after.updatedAt} OR ("updatedAt" = ${after.updatedAt} AND "id" < ${after.id}))`,
      );
    }
    if (input.q)
      where.push(Prisma.sql`LOWER("title") LIKE ${containsPattern(input.q)} ESCAPE '\\'`);
    const rows = await this.ctx.db.$queryRaw<SessionRow[]>`
      SELECT "id", "title", "headId", "rootId", "meta", "createdAt", "updatedAt"
        FROM "Session"
       WHERE ${Prisma.join(where, " AND ")}
       ORDER BY "updatedAt" DESC, "id" DESC
       LIMIT ${input.limit + 1}`;
    const page = rows.slice(0, input.limit).map(sessionFromRow);
    const counts = await this.dagCounts(page.map((p) => p.id));
    const last = page.at(-1);
    return {
      sessions: page.map((p) => ({
        ...p,
        ...(counts.get(p.id) ?? { nodeCount: 0, branchCount: 0 }),
      })),
      nextCursor: rows.length > input.limit && last ? encodeListCursor(last) : null,
    };
  }

  /**
   * Node and branch counts of a page of sessions, in one grouped query: each node of those
   * sessions is read once, and whether it has a conversation child is one probe of the
   * (sessionId, predecessorId) index. The cost follows the page's ledgers, never the
   * owner's whole history (docs/spec.md [R108]).
   */
  private async dagCounts(
    ids: readonly SessionId[],
  ): Promise<Map<SessionId, { nodeCount: number; branchCount: number }>> {
    const counts = new Map<SessionId, { nodeCount: number; branchCount: number }>();
    if (ids.length === 0) return counts;
    const side = Prisma.join(SIDE_LEAF_KINDS);
    const rows = await this.ctx.db.$queryRaw<
      { sessionId: string; nodes: number | bigint; branches: number | bigint | null }[]
    >`
      SELECT n."sessionId" AS "sessionId", COUNT(*) AS "nodes",
             SUM(CASE WHEN n."kind" IN (${side}) THEN 0
                      WHEN EXISTS (SELECT 1 FROM "Node" c
                                    WHERE c."sessionId" = n."sessionId"
                                      AND c."predecessorId" = n."id"
                                      AND c."kind" NOT IN (${side})) THEN 0
                      ELSE 1 END) AS "branches"
        FROM "Node" n
       WHERE n."sessionId" IN (${Prisma.join([...ids])})
       GROUP BY n."sessionId"`;
    for (const row of rows) {
      counts.set(asSessionId(row.sessionId), {
        nodeCount: Number(row.nodes),
        branchCount: Number(row.branches ?? 0),
      });
    }
    return counts;
  }

  /** The user's rename: from now on no automatic title replaces it ([R105]). */
  async renameSession(id: SessionId, title: string): Promise<SessionRecord> {
    await this.ctx.write(async (tx) => {
      const row = await this.ctx.lockSession(tx, id);
      const meta: SessionMeta = { ...sessionFromRow(row).meta, titleSource: "user" };
      await tx.session.update({ where: { id }, data: { title, meta: encodeJson(meta) } });
    });
    this.ctx.announce(id, { type: "session_changed" });
    return this.getSession(id);
  }

  /**
   * Writes an automatic title — a compare-and-swap under the write lock: only while the
   * session is still untitled (no `titleSource` and still called "New chat"), so a rename
   * that landed while the title was being generated wins, and so does a title given before
   * `titleSource` existed (those sessions have no marker). Returns the session as written,
   * or null when nothing was.
   */
  async setAutoTitle(id: SessionId, title: string): Promise<SessionRecord | null> {
    const written = await this.ctx.write(async (tx) => {
      const row = await this.ctx.lockSession(tx, id);
      const meta = sessionFromRow(row).meta;
      if (meta.titleSource !== undefined || row.title !== UNTITLED) return false;
      const next: SessionMeta = { ...meta, titleSource: "auto" };
      await tx.session.update({ where: { id }, data: { title, meta: encodeJson(next) } });
      return true;
    });
    if (!written) return null;
    this.ctx.announce(id, { type: "session_changed" });
    return this.getSession(id);
  }

  /**
   * Merges `patch` into the session's meta under the write lock. Meta writes never carry a
   * head (compaction.md §5: save_meta strips head_id).
   */
  async updateMeta(
    id: SessionId,
    patch: (meta: SessionMeta) => SessionMeta,
  ): Promise<SessionRecord> {
    await this.ctx.write(async (tx) => {
      const row = await this.ctx.lockSession(tx, id);
      const next = patch(sessionFromRow(row).meta);
      await tx.session.update({ where: { id }, data: { meta: encodeJson(next) } });
    });
    this.ctx.announce(id, { type: "session_changed" });
    return this.getSession(id);
  }

  async deleteSession(id: SessionId): Promise<void> {
    const { count } = await this.ctx.db.session.deleteMany({ where: { id } }).finally(() => {
      this.ctx.finals.forgetSession(id);
    });
    if (count === 0) throw new EngineError("session_not_found", `No session ${id}.`);
  }
}
