import { Prisma } from "../generated/prisma/client";
import { activeSummaryIds } from "../engine/active-summaries";
import { EngineError } from "../engine/errors";
import { asNodeId, type NodeId, type SessionId } from "../engine/ids";
import type { LedgerNode, SessionRecord } from "../engine/types";
import { nodeFromRow, sessionFromRow, type NodeRow, type SessionRow } from "./codec";
import type { StoreContext } from "./store-context";
import type { StreamLeaseStore } from "./stream-leases";

/** What a turn decides from, read once at its start ({@link TurnReads.loadTurn}). */
export interface TurnState {
  readonly session: SessionRecord;
  /** The session's replies streaming under a live lease (expired ones were sealed). */
  readonly streaming: readonly NodeId[];
  /**
   * The nodes the turn named and HEAD, read from the database now, and their predecessors
   * (which then exist too), without `reads`. A named id the session lacks is absent.
   */
  readonly nodes: ReadonlyMap<NodeId, LedgerNode>;
  /** The session's active summaries as its meta names them, in that order, without `reads`. */
  readonly summaries: readonly LedgerNode[];
}

/**
 * A turn's reads, once: the session row with its meta and settings and its streaming leases
 * in one statement (with the database's clock on PostgreSQL), then the nodes the turn names,
 * HEAD and the active summaries in a second. Predecessors and the spine then come from the
 * final-node cache ([R136]); only what it misses is read. The claim re-checks under the
 * write lock what these reads decided (HEAD, the active set, the live stream).
 */
export interface TurnReads {
  loadTurn(sessionId: SessionId, ids: readonly (NodeId | undefined)[]): Promise<TurnState>;
}

type TurnRow = SessionRow & {
  streamingId: string | null;
  leaseUntil: Date | string | number | bigint | null;
  dbNow?: Date | string;
};

function asDate(value: Date | string | number | bigint): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === "bigint" ? Number(value) : value);
}

export class TurnReader implements TurnReads {
  constructor(
    private readonly ctx: StoreContext,
    private readonly leases: Pick<StreamLeaseStore, "sealExpired">,
  ) {}

  async loadTurn(sessionId: SessionId, ids: readonly (NodeId | undefined)[]): Promise<TurnState> {
    const pg = this.ctx.kind === "postgresql";
    const rows = await this.ctx.db.$queryRaw<TurnRow[]>`
      SELECT s."id", s."title", s."headId", s."rootId", s."meta", s."createdAt", s."updatedAt",
             n."id" AS "streamingId", n."leaseUntil" AS "leaseUntil"
             ${pg ? Prisma.sql`, now() AS "dbNow"` : Prisma.empty}
        FROM "Session" s
        LEFT JOIN "Node" n ON n."sessionId" = s."id" AND n."status" = 'streaming'
       WHERE s."id" = ${sessionId}`;
    const first = rows[0];
    if (first === undefined) throw new EngineError("session_not_found", `No session ${sessionId}.`);
    const session = sessionFromRow(first);
    // The lease clock (see StoreContext.leaseClock), read with the row on PostgreSQL.
    const now = pg && first.dbNow !== undefined ? asDate(first.dbNow) : this.ctx.deps.now();
    const leases = rows.flatMap((r) =>
      r.streamingId === null || r.leaseUntil === null
        ? []
        : [{ id: asNodeId(r.streamingId), until: asDate(r.leaseUntil).getTime() }],
    );
    // A reply whose writer is gone is sealed before the turn decides, as `load` does.
    if (leases.some((l) => l.until < now.getTime())) {
      await this.leases.sealExpired({ everything: false, sessionId: session.id });
    }
    const streaming = leases.filter((l) => l.until > now.getTime()).map((l) => l.id);

    const named = ids.filter((id): id is NodeId => id !== undefined);
    if (session.headId) named.push(session.headId);
    const summaryIds = activeSummaryIds(session.meta);
    const epoch = this.ctx.finals.epoch;
    const read = await this.nodesWithPredecessors(session.id, named, summaryIds);
    this.ctx.finals.remember(session.id, read, epoch);
    const byId = new Map(read.map((n) => [n.id, n] as const));
    const nodes = new Map<NodeId, LedgerNode>();
    for (const id of named) {
      const n = byId.get(id);
      if (n === undefined) continue;
      nodes.set(n.id, n);
      const pred = n.predecessorId === null ? undefined : byId.get(n.predecessorId);
      if (pred !== undefined) nodes.set(pred.id, pred);
    }
    const summaries = summaryIds.flatMap((id) => {
      const n = byId.get(id);
      return n === undefined ? [] : [n];
    });
    return { session, streaming, nodes, summaries };
  }

  /**
   * The nodes `named` and their predecessors, and the summaries `also`, without `reads`, in
   * one statement (a predecessor is read with its child: it exists if the child does).
   */
  private async nodesWithPredecessors(
    sessionId: SessionId,
    named: readonly NodeId[],
    also: readonly NodeId[],
  ): Promise<LedgerNode[]> {
    const ids = [...new Set([...named, ...also])];
    if (ids.length === 0) return [];
    // Each part a primary-key lookup. As one WHERE with an OR, SQLite read the session's
    // every node through its (sessionId, seq) index to match the predecessors.
    const cols = Prisma.sql`n."id", n."sessionId", n."predecessorId", n."seq", n."kind", n."content",
             n."status", n."callerId", n."metadata", n."tokenCount", n."createdAt"`;
    const preds =
      named.length === 0
        ? Prisma.empty
        : Prisma.sql`UNION
      SELECT ${cols} FROM "Node" c CROSS JOIN "Node" n
       WHERE c."sessionId" = ${sessionId} AND c."id" IN (${Prisma.join([...new Set(named)])})
         AND n."id" = c."predecessorId" AND n."sessionId" = ${sessionId}`;
    const rows = await this.ctx.db.$queryRaw<Omit<NodeRow, "reads">[]>`
      SELECT ${cols} FROM "Node" n
       WHERE n."sessionId" = ${sessionId} AND n."id" IN (${Prisma.join(ids)})
      ${preds}`;
    return rows.map((row) => nodeFromRow({ ...row, reads: "[]" }));
  }
}
