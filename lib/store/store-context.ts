import type { Database, Db } from "../db/client";
import { EngineError } from "../engine/errors";
import type { CommittedEvent, CommittedEvents } from "../engine/events";
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
   * seqs (the row's `nextSeq` is then past them); returns the row as updated.
   */
  async lockSession(tx: Tx, id: SessionId, reserve = 0) {
    try {
      return await tx.session.update({
        where: { id },
        // Every write is activity: the session list orders by `updatedAt`.
        data:
          reserve > 0
            ? { nextSeq: { increment: reserve }, updatedAt: this.deps.now() }
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

  /**
   * The lease clock and a reply of the session streaming under a live lease by it (its id, or
   * null): on PostgreSQL one statement, which reads the database's clock too.
   */
  async clockAndLiveStream(
    tx: Tx,
    sessionId: SessionId,
  ): Promise<{ now: Date; live: string | null }> {
    if (this.kind !== "postgresql") {
      const now = this.deps.now();
      const live = await tx.node.findFirst({
        where: { sessionId, status: "streaming", leaseUntil: { gt: now } },
        select: { id: true },
      });
      return { now, live: live?.id ?? null };
    }
    const rows = await tx.$queryRaw<{ now: Date | string; live: string | null }[]>`
      SELECT now() AS "now",
             (SELECT "id" FROM "Node"
               WHERE "sessionId" = ${sessionId} AND "status" = 'streaming' AND "leaseUntil" > (now() AT TIME ZONE 'UTC')
               LIMIT 1) AS "live"`;
    const row = rows[0];
    if (row === undefined) throw new Error("unreachable: SELECT now() answers one row");
    return { now: row.now instanceof Date ? row.now : new Date(row.now), live: row.live };
  }

  async requireSession(db: Db | Tx, id: SessionId): Promise<void> {
    const n = await db.session.count({ where: { id } });
    if (n === 0) throw new EngineError("session_not_found", `No session ${id}.`);
  }
}
