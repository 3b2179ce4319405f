import { Prisma } from "../generated/prisma/client";
import type { Database, Db } from "../db/client";
import { EngineError } from "../engine/errors";
import type { CommittedEvent, CommittedEvents } from "../engine/events";
import type { NodeId, SessionId } from "../engine/ids";
import type { SessionRow } from "./codec";
import { FinalNodes } from "./final-nodes";
import { withWriteRetry } from "./write-retry";

/** The session row as its write lock returns it. */
export type LockedSession = SessionRow & { readonly nextSeq: number };

/** A write transaction's client. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface StoreDeps {
  readonly database: Database;
  readonly now: () => Date;
  readonly newNodeId: () => NodeId;
  readonly newSessionId: () => SessionId;
  /** Where committed writes are announced: the session channel's bus. */
  readonly events: CommittedEvents;
  /** The final-node cache (tests pass their own to watch it); one per store by default. */
  readonly finalNodes?: FinalNodes;
}

/** Ids per `IN (…)` list: well under SQLite's bound-parameter limit. */
export const COUNT_CHUNK = 500;

/**
 * The plumbing every part of the session store shares: the database, the clock and ids,
 * the final-node cache, write transactions, the session's write lock and the lease clock.
 * It holds no rule of the ledger; the parts (lib/store/*.ts, docs/architecture.md) do.
 */
export class StoreContext {
  readonly db: Db;
  /** Nodes that can never change again, as spine walks read them ([R136]). */
  readonly finals: FinalNodes;

  constructor(readonly deps: StoreDeps) {
    this.db = deps.database.db;
    this.finals = deps.finalNodes ?? new FinalNodes();
  }

  get kind() {
    return this.deps.database.kind;
  }

  /**
   * Runs `fn` as one write transaction. Its first statement (lockSession) is an UPDATE of the
   * session row: on SQLite that takes the database write lock before any read (BEGIN
   * IMMEDIATE semantics), on PostgreSQL a row lock, so concurrent writers to one session
   * serialise. Conflicts (SQLITE_BUSY, 40001, 40P01) are retried.
   */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return withWriteRetry(() => this.db.$transaction(fn, { maxWait: 10_000, timeout: 20_000 }));
  }

  /**
   * Announces what a write changed on the session's channel. Called by the parts of the
   * store only once that write's transaction has committed, with what it read under the
   * lock: the one place the ledger's and the session row's changes are published from.
   */
  announce(sessionId: SessionId, ...events: readonly CommittedEvent[]): void {
    for (const event of events) this.deps.events.publish(sessionId, event);
  }

  /**
   * Takes the session's write lock with an UPDATE of its row, reserving the next `reserve`
   * seqs (the row's `nextSeq` is then past them); returns the row as updated. One raw
   * statement: every write begins with it, a turn's claim included, where Prisma's query
   * builder cost more than the database's own work (docs/benchmarks.md, "The claim in
   * four statements").
   */
  async lockSession(tx: Tx, id: SessionId, reserve = 0): Promise<LockedSession> {
    // Every write is activity: the session list orders by `updatedAt`.
    const rows = await tx.$queryRaw<(SessionRow & { nextSeq: number | bigint })[]>`
      UPDATE "Session" SET "nextSeq" = "nextSeq" + ${reserve}, "updatedAt" = ${this.deps.now()}
       WHERE "id" = ${id}
       RETURNING "id", "title", "headId", "rootId", "meta", "nextSeq", "createdAt", "updatedAt"`;
    const row = rows[0];
    if (row === undefined) throw new EngineError("session_not_found", `No session ${id}.`);
    return { ...row, nextSeq: Number(row.nextSeq) };
  }

  /**
   * The clock leases are written and judged by. On PostgreSQL several instances share the
   * ledger, so it is the database's (`now()`): one instance's skewed clock can neither seal
   * another's live stream nor admit a second turn. A SQLite file has one server process
   * (lib/db/single-process.ts), whose own clock is the only one.
   */
  async leaseClock(db: Db | Tx): Promise<Date> {
    if (this.kind !== "postgresql") return this.deps.now();
    const rows = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS "now"`;
    const now = rows[0]?.now;
    return now instanceof Date ? now : new Date(String(now));
  }

  /**
   * What an append checks under the lock, in one read: the kind of the predecessor it names
   * (`undefined` when not asked, `null` when the session has no such node), the session's
   * reply streaming under a live lease (when `live` is asked; its id, or null) and the lease
   * clock ({@link leaseClock}: the database's on PostgreSQL, read in the same statement).
   * On SQLite, asked nothing, it reads nothing.
   */
  async appendChecks(
    tx: Tx,
    sessionId: SessionId,
    ask: { readonly predecessorId?: NodeId | undefined; readonly live: boolean },
  ): Promise<{ now: Date; predecessorKind: string | null | undefined; live: string | null }> {
    const pg = this.kind === "postgresql";
    const appNow = this.deps.now();
    if (!pg && ask.predecessorId === undefined && !ask.live) {
      return { now: appNow, predecessorKind: undefined, live: null };
    }
    const clock = pg ? Prisma.sql`(now() AT TIME ZONE 'UTC')` : Prisma.sql`${appNow}`;
    const predecessor =
      ask.predecessorId === undefined
        ? Prisma.sql`NULL`
        : Prisma.sql`(SELECT "kind" FROM "Node" WHERE "id" = ${ask.predecessorId} AND "sessionId" = ${sessionId})`;
    const live = ask.live
      ? Prisma.sql`(SELECT "id" FROM "Node"
           WHERE "sessionId" = ${sessionId} AND "status" = 'streaming' AND "leaseUntil" > ${clock}
           LIMIT 1)`
      : Prisma.sql`NULL`;
    const rows = await tx.$queryRaw<
      { now?: Date | string; predecessorKind: string | null; live: string | null }[]
    >`SELECT ${pg ? Prisma.sql`now() AS "now", ` : Prisma.empty}${predecessor} AS "predecessorKind", ${live} AS "live"`;
    const row = rows[0];
    if (row === undefined) throw new Error("unreachable: a SELECT without FROM answers one row");
    const now =
      row.now === undefined ? appNow : row.now instanceof Date ? row.now : new Date(row.now);
    return {
      now,
      predecessorKind: ask.predecessorId === undefined ? undefined : row.predecessorKind,
      live: row.live,
    };
  }

  async requireSession(db: Db | Tx, id: SessionId): Promise<void> {
    const n = await db.session.count({ where: { id } });
    if (n === 0) throw new EngineError("session_not_found", `No session ${id}.`);
  }
}
