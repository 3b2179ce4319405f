import type { Database, Db } from "../db/client";
import { EngineError } from "../engine/errors";
import type { NodeId, SessionId } from "../engine/ids";
import { FinalNodes } from "./final-nodes";
import { withWriteRetry } from "./write-retry";

/** A write transaction's client. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface StoreDeps {
  readonly database: Database;
  readonly now: () => Date;
  readonly newNodeId: () => NodeId;
  readonly newSessionId: () => SessionId;
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
   * Takes the session's write lock with an UPDATE of its row (reserving the next seq when
   * asked); returns the row as updated.
   */
  async lockSession(tx: Tx, id: SessionId, reserveSeq = false) {
    try {
      return await tx.session.update({
        where: { id },
        // Every write is activity: the session list orders by `updatedAt`.
        data: reserveSeq
          ? { nextSeq: { increment: 1 }, updatedAt: this.deps.now() }
          : { updatedAt: this.deps.now() },
      });
    } catch (e) {
      if ((e as { code?: string }).code === "P2025") {
        throw new EngineError("session_not_found", `No session ${id}.`);
      }
      throw e;
    }
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

  async requireSession(db: Db | Tx, id: SessionId): Promise<void> {
    const n = await db.session.count({ where: { id } });
    if (n === 0) throw new EngineError("session_not_found", `No session ${id}.`);
  }
}
