import { Prisma } from "../generated/prisma/client";
import { EngineError } from "../engine/errors";
import { asNodeId, type NodeId, type SessionId } from "../engine/ids";
import type { LedgerNode } from "../engine/types";
import { NEVER_VERSION_KINDS, type LeftOutWire } from "../engine/versions-left-out";
import { firstLineOfPrefix, keepsContent } from "../engine/wire-node";
import { nodeFromRow, type NodeRow } from "./codec";
import { sliceOf, spineWalk, toNodes, type LedgerSlice } from "./node-rows";
import { COUNT_CHUNK, type StoreContext } from "./store-context";

/**
 * Reads of one session's ledger: whole, by id, by page, by spine, by structure. A reference
 * stored for `reads` ([R134]) is answered as the explicit list it stands for; spine walks
 * and final reads go through the final-node cache ([R136]).
 */
export interface LedgerReads {
  nodes(sessionId: SessionId): Promise<LedgerNode[]>;
  node(sessionId: SessionId, nodeId: NodeId): Promise<LedgerNode>;
  nodesById(
    sessionId: SessionId,
    ids: readonly NodeId[],
    options?: { reads?: boolean; final?: boolean },
  ): Promise<LedgerNode[]>;
  nodesAfter(
    sessionId: SessionId,
    input: { afterSeq: number; limit?: number | undefined; reads: boolean },
  ): Promise<{ nodes: LedgerNode[]; more: boolean }>;
  lastSeq(sessionId: SessionId): Promise<number>;
  nodeCount(sessionId: SessionId): Promise<number>;
  skeletonNodes(
    sessionId: SessionId,
    full: ReadonlySet<NodeId>,
    near?: { readonly headId: NodeId; readonly also?: readonly NodeId[] },
  ): Promise<{ node: LedgerNode; label?: string }[]>;
  versionsLeftOut(
    sessionId: SessionId,
    headId: NodeId,
    held: readonly NodeId[],
    upToSeq: number,
  ): Promise<LeftOutWire>;
  spineIds(sessionId: SessionId, headId: NodeId): Promise<NodeId[]>;
  spine(sessionId: SessionId, headId: NodeId, options?: { reads?: boolean }): Promise<LedgerNode[]>;
  spineOf(sessionId: SessionId, head: LedgerNode): Promise<LedgerNode[]>;
  slice(sessionId: SessionId): LedgerSlice;
}
/**
 * Characters of each node's content the skeleton ledger reads: enough for the card label
 * of any but a pathological text (which is then read whole).
 */
const SKELETON_PREFIX = 2048;

export class LedgerReader implements LedgerReads {
  constructor(private readonly ctx: StoreContext) {}

  /** The whole ledger of a session, in insertion order. */
  async nodes(sessionId: SessionId): Promise<LedgerNode[]> {
    await this.ctx.requireSession(this.ctx.db, sessionId);
    const rows = await this.ctx.db.node.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    return toNodes(this.ctx.db, sessionId, rows, { whole: true });
  }

  /** One node, checked against the session it claims: another session's id is not found. */
  async node(sessionId: SessionId, nodeId: NodeId): Promise<LedgerNode> {
    const row = await this.ctx.db.node.findFirst({ where: { id: nodeId, sessionId } });
    if (!row) {
      await this.ctx.requireSession(this.ctx.db, sessionId);
      throw new EngineError("node_not_found", `No node ${nodeId} in session ${sessionId}.`);
    }
    const [node] = await toNodes(this.ctx.db, sessionId, [row]);
    if (!node) throw new Error("unreachable: one row, one node");
    return node;
  }

  /**
   * Several nodes of one session by id (missing ids are left out). `reads: false` leaves
   * their `reads` out (read as `[]`).
   */
  async nodesById(
    sessionId: SessionId,
    ids: readonly NodeId[],
    options: { reads?: boolean; final?: boolean } = {},
  ): Promise<LedgerNode[]> {
    if (ids.length === 0) return [];
    if (options.final === true) return this.finalNodesById(sessionId, ids);
    const rows = await this.ctx.db.node.findMany({
      where: { sessionId, id: { in: [...ids] } },
      ...(options.reads === false ? { omit: { reads: true } } : {}),
    });
    return toNodes(
      this.ctx.db,
      sessionId,
      rows.map((r) => ({ ...r, reads: "reads" in r ? r.reads : "[]" })),
    );
  }

  /**
   * {@link nodesById} without `reads`, answered from the final-node cache where it can be
   * ([R136]); the rest are read and remembered. A node another instance deleted may still
   * be answered: only for decisions a write re-checks under the lock (a turn's plan).
   */
  private async finalNodesById(sessionId: SessionId, ids: readonly NodeId[]) {
    const held: LedgerNode[] = [];
    const missing: NodeId[] = [];
    for (const id of ids) {
      const node = this.ctx.finals.get(sessionId, id);
      if (node === undefined) missing.push(id);
      else held.push(node);
    }
    if (missing.length === 0) return held;
    const epoch = this.ctx.finals.epoch;
    const read = await this.nodesById(sessionId, missing, { reads: false });
    this.ctx.finals.remember(sessionId, read, epoch);
    return [...held, ...read];
  }

  /**
   * A page of the ledger: the nodes with `seq > afterSeq`, in seq order, at most `limit`
   * (all without one). One range scan of the (sessionId, seq) unique index, so the cost
   * follows the page, never the ledger. `reads: false` leaves `reads` out (read as `[]`):
   * a lean or skeleton page never pays for provenance lists that grow with the spine.
   */
  async nodesAfter(
    sessionId: SessionId,
    input: { afterSeq: number; limit?: number | undefined; reads: boolean },
  ): Promise<{ nodes: LedgerNode[]; more: boolean }> {
    const rows = await this.ctx.db.node.findMany({
      where: { sessionId, seq: { gt: input.afterSeq } },
      orderBy: { seq: "asc" },
      ...(input.limit !== undefined ? { take: input.limit + 1 } : {}),
      ...(input.reads ? {} : { omit: { reads: true } }),
    });
    const more = input.limit !== undefined && rows.length > input.limit;
    const page = more ? rows.slice(0, input.limit) : rows;
    return {
      nodes: await toNodes(
        this.ctx.db,
        sessionId,
        page.map((r) => ({ ...r, reads: "reads" in r ? r.reads : "[]" })),
        { whole: input.afterSeq < 0 && input.limit === undefined },
      ),
      more,
    };
  }

  /** The session's highest seq (ROOT's 0 at least): one probe of the (sessionId, seq) index. */
  async lastSeq(sessionId: SessionId): Promise<number> {
    const { _max } = await this.ctx.db.node.aggregate({
      where: { sessionId },
      _max: { seq: true },
    });
    return _max.seq ?? 0;
  }

  /** The session's node count: one COUNT over the (sessionId, seq) index. */
  async nodeCount(sessionId: SessionId): Promise<number> {
    return this.ctx.db.node.count({ where: { sessionId } });
  }

  /**
   * The session page's first load (docs/big-sessions.md): every node without `reads`, and
   * of each node only a bounded prefix of its content plus its length, so a ledger of long
   * replies is not read whole. `full` names the nodes whose whole content is wanted (HEAD's
   * spine, the active summaries); for the others `label` is the card label, read from the
   * prefix — and from the whole content only where the prefix cannot decide it.
   *
   * With `near`, only the part of a big session the page opens on ([R294]): `near.headId`'s
   * spine, HEAD's children (its replies) and the nodes `full` and `near.also` name — not the
   * other versions of each spine message, which {@link versionsLeftOut} counts instead. The
   * spine is one recursive walk, HEAD's children one probe of the (sessionId, predecessorId)
   * index and the named nodes probes of the primary key, so the cost follows the spine, not
   * the ledger (nor its forks, nor the database).
   */
  async skeletonNodes(
    sessionId: SessionId,
    full: ReadonlySet<NodeId>,
    near?: { readonly headId: NodeId; readonly also?: readonly NodeId[] },
  ): Promise<{ node: LedgerNode; label?: string }[]> {
    await this.ctx.requireSession(this.ctx.db, sessionId);
    const cols = Prisma.sql`n."id", n."sessionId", n."predecessorId", n."seq", n."kind", SUBSTR(n."content", 1, ${Prisma.raw(String(SKELETON_PREFIX))}) AS "content",
             LENGTH(n."content") AS "length", n."status", n."callerId", n."metadata", n."tokenCount", n."createdAt"`;
    type Row = Omit<NodeRow, "reads"> & { length: number | bigint };
    const named = [...full, ...(near?.also ?? [])];
    // Near: the spine by key, HEAD's children from the (sessionId, predecessorId) index,
    // then the named nodes those did not read (`full` names the whole spine). Driven from
    // the spine (CROSS JOIN keeps SQLite's join order): joined the other way, SQLite
    // scanned every node of the database to match the near ids.
    const rows = near
      ? await this.ctx.db.$queryRaw<Row[]>`
      ${spineWalk(sessionId, near.headId)}
      SELECT ${cols} FROM spine s CROSS JOIN "Node" n WHERE n."id" = s.id
      UNION ALL
      SELECT ${cols} FROM "Node" n
       WHERE n."sessionId" = ${sessionId} AND n."predecessorId" = ${near.headId}
      ${
        named.length > 0
          ? Prisma.sql`UNION ALL SELECT ${cols} FROM "Node" n
       WHERE n."id" IN (${Prisma.join(named)}) AND n."sessionId" = ${sessionId}
         AND n."id" NOT IN (SELECT id FROM spine)
         AND (n."predecessorId" IS NULL OR n."predecessorId" <> ${near.headId})`
          : Prisma.empty
      }
      ORDER BY "seq" ASC`
      : await this.ctx.db.$queryRaw<Row[]>`
      SELECT ${cols} FROM "Node" n WHERE n."sessionId" = ${sessionId} ORDER BY n."seq" ASC`;
    const out: { node: LedgerNode; label?: string }[] = [];
    const whole: NodeId[] = [];
    for (const row of rows) {
      const node = nodeFromRow({ ...row, reads: "[]" });
      // Both databases count characters, so a content longer than the prefix was cut.
      const cut = Number(row.length) > SKELETON_PREFIX;
      if (full.has(node.id) || keepsContent(node)) {
        if (cut) whole.push(node.id);
        out.push({ node });
        continue;
      }
      const label = firstLineOfPrefix(node.content, !cut);
      if (label === undefined) whole.push(node.id);
      out.push(label === undefined ? { node } : { node, label });
    }
    if (whole.length > 0) {
      const contents = new Map<string, string>();
      for (let i = 0; i < whole.length; i += COUNT_CHUNK) {
        const found = await this.ctx.db.node.findMany({
          where: { sessionId, id: { in: whole.slice(i, i + COUNT_CHUNK) } },
          select: { id: true, content: true },
        });
        for (const f of found) contents.set(f.id, f.content);
      }
      return out.map((entry) => {
        const content = contents.get(entry.node.id);
        return content === undefined ? entry : { node: { ...entry.node, content } };
      });
    }
    return out;
  }

  /**
   * What a near-first page of `headId` leaves out ([R294]): for each spine message with other
   * versions, `[parentId, seq of the spine's version, versions older, versions newer]` —
   * its parent's children minus attachments (the engine's `versionsUnder`), minus the
   * spine's own and the `held` ones the page carries anyway, up to seq `upToSeq` (the
   * page's `lastSeq`: a version written since comes with the catch-up, and would otherwise
   * be counted as well as held). One pass over the spine's children that returns a row per
   * forked message, not per child. (`+n."seq"`: a bound SQLite could read through the
   * (sessionId, seq) index made it scan the session per spine node — 9.7 s, not 2.9 s, for
   * the 100,000-node page; the unary plus keeps it on the (sessionId, predecessorId) index.)
   */
  async versionsLeftOut(
    sessionId: SessionId,
    headId: NodeId,
    held: readonly NodeId[],
    upToSeq: number,
  ): Promise<LeftOutWire> {
    const rows = await this.ctx.db.$queryRaw<
      { pred: string; at: number | bigint; before: number | bigint; after: number | bigint }[]
    >`
      ${spineWalk(sessionId, headId)}
      SELECT s.pred AS "pred", c."seq" AS "at",
             SUM(CASE WHEN n."seq" < c."seq" THEN 1 ELSE 0 END) AS "before",
             SUM(CASE WHEN n."seq" > c."seq" THEN 1 ELSE 0 END) AS "after"
        FROM spine s CROSS JOIN "Node" c CROSS JOIN "Node" n
       WHERE s.pred IS NOT NULL AND c."id" = s.id
         AND n."sessionId" = ${sessionId} AND n."predecessorId" = s.pred AND n."id" <> s.id
         AND +n."seq" <= ${upToSeq}
         AND n."kind" NOT IN (${Prisma.join(NEVER_VERSION_KINDS)})
         AND (n."callerId" IS NULL OR n."callerId" <> s.pred OR n."kind" = 'tool')
         ${held.length > 0 ? Prisma.sql`AND n."id" NOT IN (${Prisma.join(held)})` : Prisma.empty}
       GROUP BY s.pred, c."seq"`;
    return rows.map((r) => [r.pred, Number(r.at), Number(r.before), Number(r.after)] as const);
  }

  /** The ids of `headId`'s spine, ROOT first: the spine walk reading no content at all. */
  async spineIds(sessionId: SessionId, headId: NodeId): Promise<NodeId[]> {
    const rows = await this.ctx.db.$queryRaw<{ id: string }[]>`
      ${spineWalk(sessionId, headId)}
      SELECT id FROM spine ORDER BY depth DESC`;
    return rows.map((r) => asNodeId(r.id));
  }

  /**
   * HEAD's predecessor spine, ROOT first, in one recursive query: the cost follows the
   * spine's length, not the size of the DAG. `reads: false` leaves each node's `reads` out
   * (read as `[]`): rendering never looks at them, and on a long spine they hold
   * O(spine²) ids.
   */
  async spine(
    sessionId: SessionId,
    headId: NodeId,
    options: { reads?: boolean } = {},
  ): Promise<LedgerNode[]> {
    const spine =
      options.reads === false
        ? await this.finalSpine(sessionId, headId)
        : await this.spineRead(sessionId, headId, true);
    if (spine.length === 0) {
      await this.ctx.requireSession(this.ctx.db, sessionId);
      throw new EngineError("node_not_found", `No node ${headId} in session ${sessionId}.`);
    }
    if (spine[0]?.kind !== "root") {
      throw new EngineError("invalid_ledger", `The spine of ${headId} does not reach ROOT.`);
    }
    return spine;
  }

  /**
   * The spine without `reads`, walked through the final-node cache ([R136]): a warm turn
   * reads only the nodes written since the last walk — the reply just sealed, the user node
   * just written — so its cost no longer follows the spine's length. The head itself is
   * always read from the database: it must exist now (another instance may have deleted
   * it), and then so does everything above it — a node's predecessor outlives it. From the
   * first node above it that the cache misses, the rest of the spine comes in one recursive
   * query, as before. ROOT first; empty when `headId` is not in the session.
   */
  private async finalSpine(sessionId: SessionId, headId: NodeId): Promise<LedgerNode[]> {
    const epoch = this.ctx.finals.epoch;
    const [head] = await this.nodesById(sessionId, [headId], { reads: false });
    if (head === undefined) return [];
    this.ctx.finals.remember(sessionId, [head], epoch);
    return this.spineAbove(sessionId, head, epoch);
  }

  /**
   * {@link spine} without `reads` from a head the caller read from the database just now
   * (a turn's load): the rest is walked through the final-node cache, and read in one
   * recursive query from the first node it misses.
   */
  async spineOf(sessionId: SessionId, head: LedgerNode): Promise<LedgerNode[]> {
    const spine = await this.spineAbove(sessionId, head, this.ctx.finals.epoch);
    if (spine[0]?.kind !== "root") {
      throw new EngineError("invalid_ledger", `The spine of ${head.id} does not reach ROOT.`);
    }
    return spine;
  }

  /** `head` and the spine above it, ROOT first, through the cache ({@link finalSpine}). */
  private async spineAbove(
    sessionId: SessionId,
    head: LedgerNode,
    epoch: number,
  ): Promise<LedgerNode[]> {
    const bottomUp: LedgerNode[] = [head];
    if (head.predecessorId !== null) {
      const { above, missing } = this.ctx.finals.walk(sessionId, head.predecessorId);
      bottomUp.push(...above);
      if (missing !== null) {
        const rest = await this.spineRead(sessionId, missing, false);
        this.ctx.finals.remember(sessionId, rest, epoch);
        for (let i = rest.length - 1; i >= 0; i--) bottomUp.push(rest[i] as LedgerNode);
      }
    }
    return bottomUp.reverse();
  }

  /** One recursive query: `headId`'s spine, ROOT first (empty when there is no such node). */
  private async spineRead(
    sessionId: SessionId,
    headId: NodeId,
    withReads: boolean,
  ): Promise<LedgerNode[]> {
    const reads = withReads ? Prisma.sql`n."reads"` : Prisma.sql`CAST('[]' AS TEXT)`;
    const rows = await this.ctx.db.$queryRaw<(NodeRow & { depth: number | bigint })[]>`
      ${spineWalk(sessionId, headId)}
      SELECT n."id", n."sessionId", n."predecessorId", n."seq", n."kind", n."content", n."status",
             n."callerId", n."metadata", ${reads} AS "reads", n."tokenCount", n."createdAt", s.depth
        FROM spine s JOIN "Node" n ON n."id" = s.id
       ORDER BY s.depth DESC`;
    return toNodes(this.ctx.db, sessionId, rows);
  }

  /** Structure reads of one session's ledger outside a transaction ({@link LedgerSlice}). */
  slice(sessionId: SessionId): LedgerSlice {
    return sliceOf(this.ctx.db, sessionId);
  }
}
