import type { Database, Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { EngineError } from "../engine/errors";
import { asNodeId, asSessionId, type NodeId, type SessionId, type Tokens } from "../engine/ids";
import type {
  ImportPlan,
  LedgerNode,
  NodeKind,
  NodeMetadata,
  NodeStatus,
  SessionListItem,
  SessionMeta,
  SessionSettings,
  SessionRecord,
} from "../engine/types";
import { shouldAdvanceHead } from "../engine/should-advance-head";
import { isSideLeafKind } from "../engine/side-leaf";
import { firstLineOfPrefix, keepsContent } from "../engine/wire-node";
import { activeSummaryIds } from "../engine/active-summaries";
import { expandReadsRef, readsRefKey, readsRefSummaries, type ReadsRef } from "../engine/reads-ref";
import { loadInnerSummaries } from "../engine/summary-turns";
import {
  encodeJson,
  encodeReads,
  nodeFromRow,
  readsRefOf,
  sessionFromRow,
  type NodeRow,
  type SessionRow,
} from "./codec";
import { decodeListCursor, encodeListCursor } from "./list-cursor";
import { withWriteRetry } from "./write-retry";
import { FinalNodes } from "./final-nodes";
import { LOCAL_OWNER, type OwnerId } from "../engine/ids";
import { UNTITLED } from "../engine/session-title";
import { DEFAULT_SYSTEM_PROMPT } from "../engine/system-prompt";
import { yieldToEventLoop } from "../yield-to-event-loop";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface StoreDeps {
  readonly database: Database;
  readonly now: () => Date;
  readonly newNodeId: () => NodeId;
  readonly newSessionId: () => SessionId;
  /** The final-node cache (tests pass their own to watch it); one per store by default. */
  readonly finalNodes?: FinalNodes;
}

export interface AppendInput {
  readonly sessionId: SessionId;
  /** Where the node hangs. `"head"` resolves to the session's HEAD inside the write lock. */
  readonly predecessorId: NodeId | "head";
  readonly kind: Exclude<NodeKind, "root">;
  readonly content: string;
  readonly status: NodeStatus;
  readonly tokenCount: Tokens;
  readonly callerId?: NodeId | null;
  readonly metadata?: NodeMetadata;
  readonly reads?: readonly NodeId[];
  /** Store `reads` as this reference to the rendering they are ([R134]). */
  readonly readsRef?: ReadsRef;
  /** The turn's head policy (compaction.md §5): false for spawned sub-agent writes. */
  readonly advanceHead: boolean;
  /** Streaming nodes: how long the lease lasts before the node counts as orphaned. */
  readonly leaseMs?: number;
  /** Refuse with `turn_in_progress` while another reply of the session is streaming. */
  readonly exclusive?: boolean;
  /**
   * The explicit fork move (a send under `parentId`, a retry, an edit): HEAD moves to this
   * node even though it does not extend HEAD's chain — in the same transaction as the insert.
   * Ignored when the turn's policy is `advanceHead = false`.
   */
  readonly forkMovesHead?: boolean;
  /**
   * Rewrites the session's meta in the same transaction, given the new node (a compaction's
   * summary moves `_last_summary_id` / `_last_summary_text` atomically with its insert).
   */
  readonly metaAfter?: (meta: SessionMeta, node: LedgerNode) => SessionMeta;
  /**
   * The HEAD the caller planned against: when HEAD moved since (another tab checked out),
   * the append is refused with `conflict` instead of landing on a branch nobody sees.
   */
  readonly expectedHeadId?: NodeId | null;
  /**
   * Opens the turn's streaming reply under the new node in the same transaction, so the
   * turn is claimed (`exclusive`) atomically with its first write.
   */
  readonly placeholder?: { readonly metadata: NodeMetadata; readonly leaseMs: number };
  /**
   * Uploaded attachments the new node is sent with: claimed in the same transaction (each
   * must belong to the session and not be claimed yet), so the node and its files land
   * together or not at all (R265).
   */
  readonly attachmentIds?: readonly string[];
  /**
   * A compaction's compare-and-swap: the summary lands only if, under the write lock, the
   * active set is still the one the plan read (`_last_summary_id`, or `_active_summary_ids`
   * in order) and every id it covers still exists. Otherwise nothing is written
   * (`compaction_conflict`).
   */
  readonly expectSummary?: {
    readonly activeIds: readonly NodeId[];
    readonly coversIds: readonly NodeId[];
  };
}

/** An upload, judged and counted, as the store writes it. */
export interface NewAttachment {
  readonly sessionId: SessionId;
  readonly name: string;
  readonly mime: string;
  readonly kind: string;
  readonly sha256: string;
  readonly data: Uint8Array;
  /** The text of a text attachment (what prompts and search read). */
  readonly text?: string | null;
  readonly tokens: number;
  readonly width?: number | undefined;
  readonly height?: number | undefined;
}

/** An attachment's row: everything but the bytes. */
export interface StoredAttachment {
  readonly id: string;
  readonly sessionId: SessionId;
  readonly name: string;
  readonly mime: string;
  readonly kind: string;
  readonly size: number;
  readonly sha256: string;
  readonly tokens: number;
  readonly width: number | null;
  readonly height: number | null;
  /** The user node it was sent with; null while it waits for its turn. */
  readonly nodeId: NodeId | null;
  readonly createdAt: string;
}

function attachmentFromRow(row: {
  id: string;
  sessionId: string;
  name: string;
  mime: string;
  kind: string;
  size: number;
  sha256: string;
  tokens: number;
  width: number | null;
  height: number | null;
  nodeId: string | null;
  createdAt: Date;
}): StoredAttachment {
  return {
    id: row.id,
    sessionId: asSessionId(row.sessionId),
    name: row.name,
    mime: row.mime,
    kind: row.kind,
    size: row.size,
    sha256: row.sha256,
    tokens: row.tokens,
    width: row.width,
    height: row.height,
    nodeId: row.nodeId === null ? null : asNodeId(row.nodeId),
    createdAt: row.createdAt.toISOString(),
  };
}

export interface AppendResult {
  readonly node: LedgerNode;
  readonly headMoved: boolean;
  /** HEAD as it was under the write lock, before this append. */
  readonly previousHeadId: NodeId | null;
  /** The streaming reply opened with `placeholder`. */
  readonly placeholder?: LedgerNode;
  /** Whether HEAD ended on the placeholder. */
  readonly headOnPlaceholder?: boolean;
  /**
   * The session's meta as this write left it, read under the same lock: what a turn claimed
   * by this write must render with (the active summary of that moment).
   */
  readonly meta: SessionMeta;
}

export interface SealInput {
  readonly status: Exclude<NodeStatus, "streaming">;
  readonly content: string;
  readonly tokenCount: Tokens;
  readonly metadata?: NodeMetadata;
  /** The prompt that actually produced the reply (a reactive retry re-renders it). */
  readonly reads?: readonly NodeId[];
  /** Store `reads` as this reference to the rendering they are ([R134]). */
  readonly readsRef?: ReadsRef;
  /**
   * The reads the row holds once sealed, when the caller knows them (the prompt it sent):
   * the sealed node is answered with them instead of reading them back, which for a stored
   * reference would walk the whole spine again ([R139]).
   */
  readonly known?: readonly NodeId[];
}

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

/** Rows as nodes, each id once (a spine node is also its predecessor's child). */
function uniqueNodes(rows: readonly NodeRow[]): LedgerNode[] {
  const byId = new Map<string, LedgerNode>();
  for (const row of rows) if (!byId.has(row.id)) byId.set(row.id, nodeFromRow(row));
  return [...byId.values()];
}

export interface SessionPage {
  readonly sessions: readonly SessionListItem[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
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

/**
 * An import transaction holds at most this many nodes or this much text, whichever comes
 * first: each holds the write lock for milliseconds, whatever the nodes' sizes.
 */
const IMPORT_BATCH = { nodes: 500, chars: 1_000_000 };

function* importBatches<T extends { readonly content: string }>(nodes: readonly T[]) {
  let batch: T[] = [];
  let chars = 0;
  for (const node of nodes) {
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH.nodes || chars >= IMPORT_BATCH.chars)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(node);
    chars += node.content.length;
  }
  if (batch.length > 0) yield batch;
}
/** The owner prefix of a session whose import is still being written. */
const IMPORTING = "importing:";

/**
 * Characters of each node's content the skeleton ledger reads: enough for the card label
 * of any but a pathological text (which is then read whole).
 */
const SKELETON_PREFIX = 2048;

/** Ids per `IN (…)` list: well under SQLite's bound-parameter limit. */
const COUNT_CHUNK = 500;

/**
 * The only code that touches the ledger tables. The ledger is append-only: a complete node is
 * never updated; a streaming reply is filled in batches and sealed once. HEAD is written in
 * exactly two places, both here: `setHead` (the explicit user moves) and the chain-extension
 * rule inside `append` (compaction.md §5).
 */
/** What a seal writes besides the text: the final status, the count, no lease, and the
 * metadata and `reads` when given (as a reference when there is one). */
function sealColumns(input: Omit<SealInput, "content">) {
  return {
    status: input.status,
    tokenCount: input.tokenCount,
    leaseUntil: null,
    ...(input.metadata ? { metadata: encodeJson(input.metadata) } : {}),
    ...(input.readsRef || input.reads
      ? { reads: encodeReads(input.readsRef ?? input.reads ?? []) }
      : {}),
  };
}

/**
 * `spine(id, pred, depth)`: the walk from `headId` up its predecessors to ROOT, one indexed
 * lookup per node (depth 0 is the head), for queries that then join what they need.
 */
function spineWalk(sessionId: SessionId, headId: NodeId): Prisma.Sql {
  return Prisma.sql`WITH RECURSIVE spine(id, pred, depth) AS (
        SELECT "id", "predecessorId", 0 FROM "Node" WHERE "id" = ${headId} AND "sessionId" = ${sessionId}
        UNION ALL
        SELECT n."id", n."predecessorId", s.depth + 1
          FROM "Node" n JOIN spine s ON n."id" = s.pred
         WHERE n."sessionId" = ${sessionId}
      )`;
}

export class SessionStore {
  private readonly db: Db;
  /** Nodes that can never change again, as spine walks read them ([R136]). */
  private readonly finals: FinalNodes;

  constructor(private readonly deps: StoreDeps) {
    this.db = deps.database.db;
    this.finals = deps.finalNodes ?? new FinalNodes();
  }

  get kind() {
    return this.deps.database.kind;
  }

  // ── sessions ────────────────────────────────────────────────────────────────────────

  /**
   * Creates a session with its ROOT node (the system prompt); HEAD starts at ROOT. A title
   * given here is the user's ([R105]); without one the session is "New chat" until its
   * first reply titles it.
   */
  async createSession(input: {
    title?: string | undefined;
    systemPrompt?: string | undefined;
    /** Tokens of the system prompt (the budget prices ROOT like any message). */
    rootTokens?: Tokens | undefined;
    ownerId?: OwnerId;
    /** `meta.settings` from the start (validated by the caller, as `PATCH` validates them). */
    settings?: SessionSettings;
  }): Promise<SessionRecord> {
    const id = this.deps.newSessionId();
    const rootId = this.deps.newNodeId();
    const now = this.deps.now();
    const given = input.title?.trim();
    const title = given || UNTITLED;
    const meta: SessionMeta = {
      ...(given ? { titleSource: "user" as const } : {}),
      ...(input.settings ? { settings: input.settings } : {}),
    };
    await this.write(async (tx) => {
      await tx.session.create({
        data: {
          id,
          title,
          headId: rootId,
          rootId,
          ownerId: input.ownerId ?? LOCAL_OWNER,
          meta: encodeJson(meta),
          nextSeq: 1,
          createdAt: now,
          updatedAt: now,
        },
      });
      await tx.node.create({
        data: {
          id: rootId,
          sessionId: id,
          predecessorId: null,
          seq: 0,
          kind: "root",
          content: input.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
          status: "complete",
          metadata: "{}",
          reads: "[]",
          tokenCount: input.rootTokens ?? 0,
          createdAt: now,
        },
      });
    });
    return this.getSession(id);
  }

  /**
   * Writes an imported ledger (already re-ided and checked) as one new session. A big ledger
   * goes in bounded transactions that yield between batches, so the server keeps answering
   * meanwhile; until the last batch lands the session belongs to a staging owner nobody is,
   * so nobody sees it half-written, and a failure removes it. A server that dies mid-import
   * leaves a staged session that `removeAbandonedImports` deletes.
   */
  async importSession(plan: ImportPlan, ownerId: OwnerId = LOCAL_OWNER): Promise<SessionRecord> {
    const id = this.deps.newSessionId();
    const now = this.deps.now();
    await this.db.session.create({
      data: {
        id,
        title: plan.title,
        headId: plan.headId,
        rootId: plan.rootId,
        ownerId: `${IMPORTING}${ownerId}`,
        meta: encodeJson(plan.meta),
        nextSeq: plan.nodes.length,
        createdAt: now,
        updatedAt: now,
      },
    });
    try {
      for (const batch of importBatches(plan.nodes)) {
        const rows = batch.map((n) => ({
          id: n.id,
          sessionId: id,
          predecessorId: n.predecessorId,
          seq: n.seq,
          kind: n.kind,
          content: n.content,
          status: n.status,
          callerId: n.callerId,
          metadata: encodeJson(n.metadata),
          reads: encodeReads(n.reads),
          tokenCount: n.tokenCount,
          createdAt: new Date(n.createdAt),
        }));
        await this.write(async (tx) => {
          await tx.node.createMany({ data: rows });
          // The heartbeat that tells other instances this import is alive.
          await tx.session.update({ where: { id }, data: { updatedAt: this.deps.now() } });
        });
        await yieldToEventLoop();
      }
      // The files of the nodes (R271): one blob and its rows at a time.
      for (const blob of plan.blobs ?? []) {
        await this.write(async (tx) => {
          await tx.blob.create({
            data: {
              sessionId: id,
              sha256: blob.sha256,
              size: blob.data.byteLength,
              data: blob.data as Uint8Array<ArrayBuffer>,
              text: blob.text,
              createdAt: now,
            },
          });
        });
      }
      if (plan.attachments && plan.attachments.length > 0) {
        await this.db.attachment.createMany({
          data: plan.attachments.map((a) => ({
            id: a.id,
            sessionId: id,
            sha256: a.sha256,
            name: a.name,
            mime: a.mime,
            kind: a.kind,
            size: a.size,
            tokens: a.tokens,
            width: a.width ?? null,
            height: a.height ?? null,
            nodeId: a.nodeId,
            createdAt: now,
          })),
        });
      }
      await this.db.session.update({ where: { id }, data: { ownerId } });
    } catch (e) {
      // The import's own error is the one to report, whatever the clean-up meets.
      await this.db.session.deleteMany({ where: { id } }).catch(() => undefined);
      throw e;
    }
    return this.getSession(id);
  }

  /** Deletes sessions whose import began over `olderThanMs` ago and never finished. */
  async removeAbandonedImports(olderThanMs: number): Promise<number> {
    const { count } = await this.db.session.deleteMany({
      where: {
        ownerId: { startsWith: IMPORTING },
        updatedAt: { lt: new Date(this.deps.now().getTime() - olderThanMs) },
      },
    });
    return count;
  }

  async getSession(id: SessionId): Promise<SessionRecord> {
    const row = await this.db.session.findUnique({ where: { id } });
    if (!row) throw new EngineError("session_not_found", `No session ${id}.`);
    return sessionFromRow(row);
  }

  /**
   * The account a session belongs to, or null when there is no such session. Ownership never
   * changes after creation (but for `adoptLocalSessions`), so a check made with it holds.
   */
  async ownerOf(id: SessionId): Promise<OwnerId | null> {
    const row = await this.db.session.findUnique({ where: { id }, select: { ownerId: true } });
    return row ? (row.ownerId as OwnerId) : null;
  }

  /** Hands the sessions made in single-user mode to the first account (first run). */
  async adoptLocalSessions(ownerId: OwnerId): Promise<number> {
    const { count } = await this.db.session.updateMany({
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
    const rows = await this.db.$queryRaw<SessionRow[]>`
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
    const rows = await this.db.$queryRaw<
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
    await this.write(async (tx) => {
      const row = await this.lockSession(tx, id);
      const meta: SessionMeta = { ...sessionFromRow(row).meta, titleSource: "user" };
      await tx.session.update({ where: { id }, data: { title, meta: encodeJson(meta) } });
    });
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
    const written = await this.write(async (tx) => {
      const row = await this.lockSession(tx, id);
      const meta = sessionFromRow(row).meta;
      if (meta.titleSource !== undefined || row.title !== UNTITLED) return false;
      const next: SessionMeta = { ...meta, titleSource: "auto" };
      await tx.session.update({ where: { id }, data: { title, meta: encodeJson(next) } });
      return true;
    });
    return written ? this.getSession(id) : null;
  }

  /**
   * Merges `patch` into the session's meta under the write lock. Meta writes never carry a
   * head (compaction.md §5: save_meta strips head_id).
   */
  async updateMeta(
    id: SessionId,
    patch: (meta: SessionMeta) => SessionMeta,
  ): Promise<SessionRecord> {
    await this.write(async (tx) => {
      const row = await this.lockSession(tx, id);
      const next = patch(sessionFromRow(row).meta);
      await tx.session.update({ where: { id }, data: { meta: encodeJson(next) } });
    });
    return this.getSession(id);
  }

  async deleteSession(id: SessionId): Promise<void> {
    const { count } = await this.db.session.deleteMany({ where: { id } }).finally(() => {
      this.finals.forgetSession(id);
    });
    if (count === 0) throw new EngineError("session_not_found", `No session ${id}.`);
  }

  // ── nodes ───────────────────────────────────────────────────────────────────────────

  /** The whole ledger of a session, in insertion order. */
  async nodes(sessionId: SessionId): Promise<LedgerNode[]> {
    await this.requireSession(this.db, sessionId);
    const rows = await this.db.node.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    return this.toNodes(this.db, sessionId, rows, { whole: true });
  }

  /** One node, checked against the session it claims: another session's id is not found. */
  async node(sessionId: SessionId, nodeId: NodeId): Promise<LedgerNode> {
    const row = await this.db.node.findFirst({ where: { id: nodeId, sessionId } });
    if (!row) {
      await this.requireSession(this.db, sessionId);
      throw new EngineError("node_not_found", `No node ${nodeId} in session ${sessionId}.`);
    }
    const [node] = await this.toNodes(this.db, sessionId, [row]);
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
    const rows = await this.db.node.findMany({
      where: { sessionId, id: { in: [...ids] } },
      ...(options.reads === false ? { omit: { reads: true } } : {}),
    });
    return this.toNodes(
      this.db,
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
      const node = this.finals.get(sessionId, id);
      if (node === undefined) missing.push(id);
      else held.push(node);
    }
    if (missing.length === 0) return held;
    const epoch = this.finals.epoch;
    const read = await this.nodesById(sessionId, missing, { reads: false });
    this.finals.remember(sessionId, read, epoch);
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
    const rows = await this.db.node.findMany({
      where: { sessionId, seq: { gt: input.afterSeq } },
      orderBy: { seq: "asc" },
      ...(input.limit !== undefined ? { take: input.limit + 1 } : {}),
      ...(input.reads ? {} : { omit: { reads: true } }),
    });
    const more = input.limit !== undefined && rows.length > input.limit;
    const page = more ? rows.slice(0, input.limit) : rows;
    return {
      nodes: await this.toNodes(
        this.db,
        sessionId,
        page.map((r) => ({ ...r, reads: "reads" in r ? r.reads : "[]" })),
        { whole: input.afterSeq < 0 && input.limit === undefined },
      ),
      more,
    };
  }

  /** The session's highest seq (ROOT's 0 at least): one probe of the (sessionId, seq) index. */
  async lastSeq(sessionId: SessionId): Promise<number> {
    const { _max } = await this.db.node.aggregate({ where: { sessionId }, _max: { seq: true } });
    return _max.seq ?? 0;
  }

  /** The session's node count: one COUNT over the (sessionId, seq) index. */
  async nodeCount(sessionId: SessionId): Promise<number> {
    return this.db.node.count({ where: { sessionId } });
  }

  /**
   * The session page's first load (docs/big-sessions.md): every node without `reads`, and
   * of each node only a bounded prefix of its content plus its length, so a ledger of long
   * replies is not read whole. `full` names the nodes whose whole content is wanted (HEAD's
   * spine, the active summaries); for the others `label` is the card label, read from the
   * prefix — and from the whole content only where the prefix cannot decide it.
   */
  async skeletonNodes(
    sessionId: SessionId,
    full: ReadonlySet<NodeId>,
  ): Promise<{ node: LedgerNode; label?: string }[]> {
    await this.requireSession(this.db, sessionId);
    const rows = await this.db.$queryRaw<(Omit<NodeRow, "reads"> & { length: number | bigint })[]>`
      SELECT "id", "sessionId", "predecessorId", "seq", "kind", SUBSTR("content", 1, ${Prisma.raw(String(SKELETON_PREFIX))}) AS "content",
             LENGTH("content") AS "length", "status", "callerId", "metadata", "tokenCount", "createdAt"
        FROM "Node" WHERE "sessionId" = ${sessionId} ORDER BY "seq" ASC`;
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
        const found = await this.db.node.findMany({
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

  /** The ids of `headId`'s spine, ROOT first: the spine walk reading no content at all. */
  async spineIds(sessionId: SessionId, headId: NodeId): Promise<NodeId[]> {
    const rows = await this.db.$queryRaw<{ id: string }[]>`
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
      await this.requireSession(this.db, sessionId);
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
    const epoch = this.finals.epoch;
    const [head] = await this.nodesById(sessionId, [headId], { reads: false });
    if (head === undefined) return [];
    this.finals.remember(sessionId, [head], epoch);
    const bottomUp: LedgerNode[] = [head];
    if (head.predecessorId !== null) {
      const { above, missing } = this.finals.walk(sessionId, head.predecessorId);
      bottomUp.push(...above);
      if (missing !== null) {
        const rest = await this.spineRead(sessionId, missing, false);
        this.finals.remember(sessionId, rest, epoch);
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
    const rows = await this.db.$queryRaw<(NodeRow & { depth: number | bigint })[]>`
      ${spineWalk(sessionId, headId)}
      SELECT n."id", n."sessionId", n."predecessorId", n."seq", n."kind", n."content", n."status",
             n."callerId", n."metadata", ${reads} AS "reads", n."tokenCount", n."createdAt", s.depth
        FROM spine s JOIN "Node" n ON n."id" = s.id
       ORDER BY s.depth DESC`;
    return this.toNodes(this.db, sessionId, rows);
  }

  /**
   * Appends one node under the session's write lock. HEAD moves to the new node only when
   * the node extends the chain (its predecessor is the current HEAD) and the turn allows it.
   */
  async append(input: AppendInput): Promise<AppendResult> {
    return this.write(async (tx) => {
      const session = await this.lockSession(tx, input.sessionId, true);
      const predecessorId =
        input.predecessorId === "head" ? asNodeId(session.headId ?? "") : input.predecessorId;
      const pred = await tx.node.findFirst({
        where: { id: predecessorId, sessionId: input.sessionId },
        select: { id: true, kind: true },
      });
      if (!pred) {
        throw new EngineError(
          "node_not_found",
          `No node ${predecessorId} in session ${input.sessionId}.`,
        );
      }
      // [R5], asserted where the write lands: nothing hangs off a summary or a notice.
      if (isSideLeafKind(pred.kind as NodeKind)) {
        throw new EngineError(
          "invalid_target",
          `Nothing can be appended under a ${pred.kind}: it is a side leaf.`,
        );
      }
      if (input.callerId) {
        const caller = await tx.node.count({
          where: { id: input.callerId, sessionId: input.sessionId },
        });
        if (caller === 0) {
          throw new EngineError(
            "node_not_found",
            `No caller ${input.callerId} in session ${input.sessionId}.`,
          );
        }
      }
      if (input.expectSummary) await this.checkSummaryBase(tx, session, input.expectSummary);
      const now = await this.leaseClock(tx);
      if (input.expectedHeadId !== undefined && session.headId !== input.expectedHeadId) {
        throw new EngineError(
          "conflict",
          "HEAD moved (another tab switched branches) while this turn was being prepared; send it again.",
        );
      }
      if (input.exclusive) {
        const live = await tx.node.findFirst({
          where: { sessionId: input.sessionId, status: "streaming", leaseUntil: { gt: now } },
          select: { id: true },
        });
        if (live) {
          throw new EngineError(
            "turn_in_progress",
            "A reply is still streaming in this session; stop it or wait for it to finish.",
            { streamingId: live.id },
          );
        }
      }
      const id = this.deps.newNodeId();
      const seq = session.nextSeq - 1;
      const row = await tx.node.create({
        data: {
          id,
          sessionId: input.sessionId,
          predecessorId,
          seq,
          kind: input.kind,
          content: input.content,
          status: input.status,
          callerId: input.callerId ?? null,
          metadata: encodeJson(input.metadata ?? {}),
          reads: encodeReads(input.readsRef ?? input.reads ?? []),
          tokenCount: input.tokenCount,
          leaseUntil:
            input.status === "streaming"
              ? new Date(now.getTime() + (input.leaseMs ?? 30_000))
              : null,
          createdAt: now,
        },
      });
      if (input.attachmentIds && input.attachmentIds.length > 0) {
        await this.claimAttachments(tx, input.sessionId, id, input.attachmentIds);
      }
      // §5: the chain-extension rule (or the user's explicit fork), decided by the engine.
      const headMoved =
        shouldAdvanceHead({
          currentHeadId: session.headId === null ? null : asNodeId(session.headId),
          node: { kind: input.kind, predecessorId },
          advanceHead: input.advanceHead,
        }) ||
        (input.advanceHead && input.forkMovesHead === true && !isSideLeafKind(input.kind));
      // A reference is stored; the node answers the explicit list it stands for (taken as
      // given, not encoded and parsed back: on a long spine it is thousands of ids).
      const node: LedgerNode = {
        ...nodeFromRow({ ...row, reads: "[]" }),
        reads: [...(input.reads ?? [])],
      };
      let head: string | null = headMoved ? id : null;
      let placeholder: LedgerNode | undefined;
      if (input.placeholder) {
        const bumped = await tx.session.update({
          where: { id: input.sessionId },
          data: { nextSeq: { increment: 1 } },
        });
        const placeholderId = this.deps.newNodeId();
        placeholder = nodeFromRow(
          await tx.node.create({
            data: {
              id: placeholderId,
              sessionId: input.sessionId,
              predecessorId: id,
              seq: bumped.nextSeq - 1,
              kind: "assistant",
              content: "",
              status: "streaming",
              callerId: null,
              metadata: encodeJson(input.placeholder.metadata),
              reads: "[]",
              tokenCount: 0,
              leaseUntil: new Date(now.getTime() + input.placeholder.leaseMs),
              createdAt: now,
            },
          }),
        );
        const extends_ = shouldAdvanceHead({
          currentHeadId: asNodeId(head ?? session.headId ?? ""),
          node: { kind: "assistant", predecessorId: asNodeId(id) },
          advanceHead: input.advanceHead,
        });
        if (extends_) head = placeholderId;
      }
      const metaBefore = sessionFromRow(session).meta;
      const metaAfter = input.metaAfter ? input.metaAfter(metaBefore, node) : undefined;
      const meta = metaAfter ? encodeJson(metaAfter) : undefined;
      if (head !== null || meta !== undefined) {
        await tx.session.update({
          where: { id: input.sessionId },
          data: {
            ...(head !== null ? { headId: head } : {}),
            ...(meta !== undefined ? { meta } : {}),
          },
        });
      }
      return {
        node,
        headMoved,
        previousHeadId: session.headId === null ? null : asNodeId(session.headId),
        ...(placeholder ? { placeholder, headOnPlaceholder: head === placeholder.id } : {}),
        meta: metaAfter ?? metaBefore,
      };
    });
  }

  /** True while a reply of the session streams under a live lease. */
  async hasLiveStream(sessionId: SessionId): Promise<boolean> {
    const now = await this.leaseClock(this.db);
    const n = await this.db.node.count({
      where: { sessionId, status: "streaming", leaseUntil: { gt: now } },
    });
    return n > 0;
  }

  /**
   * Appends the text streamed since the previous fill to a streaming node and renews its
   * lease (an empty `chunk` only renews it). Only the new text travels, so a reply's fills
   * cost its length once, not its length squared ([R117]). The writer owns the node through
   * its lease and sends its chunks one after the other, in order; a statement that lost a
   * race is rolled back before it is retried, so no chunk lands twice.
   */
  async appendStreaming(
    sessionId: SessionId,
    nodeId: NodeId,
    chunk: string,
    leaseMs = 30_000,
  ): Promise<void> {
    const count = await this.write(async (tx) => {
      const leaseUntil = new Date((await this.leaseClock(tx)).getTime() + leaseMs);
      return tx.$executeRaw`
        UPDATE "Node" SET "content" = "content" || ${chunk}, "leaseUntil" = ${leaseUntil}
         WHERE "id" = ${nodeId} AND "sessionId" = ${sessionId} AND "status" = 'streaming'`;
    });
    if (count === 0) throw new EngineError("conflict", `Node ${nodeId} is no longer streaming.`);
  }

  /** Stamps the prompt a streaming reply is produced from (set once its rendering is known). */
  async stampReads(
    sessionId: SessionId,
    nodeId: NodeId,
    reads: readonly NodeId[] | ReadsRef,
  ): Promise<void> {
    const { count } = await this.write((tx) =>
      tx.node.updateMany({
        where: { id: nodeId, sessionId, status: "streaming" },
        data: { reads: encodeReads(reads) },
      }),
    );
    if (count === 0) throw new EngineError("conflict", `Node ${nodeId} is no longer streaming.`);
  }

  /** Seals a streaming node once; a sealed node never changes again. */
  async seal(sessionId: SessionId, nodeId: NodeId, input: SealInput): Promise<LedgerNode> {
    const data = { ...sealColumns(input), content: input.content };
    // Sealing is what makes a reply final: one serialised write, retried like any write that
    // lost a race.
    const { count } = await this.write((tx) =>
      tx.node.updateMany({ where: { id: nodeId, sessionId, status: "streaming" }, data }),
    );
    if (count === 0) throw new EngineError("conflict", `Node ${nodeId} is no longer streaming.`);
    return this.sealed(sessionId, nodeId, input.known);
  }

  /** A node just sealed: with the reads the caller knows it holds, or read back whole. */
  private async sealed(
    sessionId: SessionId,
    nodeId: NodeId,
    known: readonly NodeId[] | undefined,
  ): Promise<LedgerNode> {
    if (known === undefined) return this.node(sessionId, nodeId);
    const [node] = await this.nodesById(sessionId, [nodeId], { reads: false });
    if (node === undefined) {
      throw new EngineError("node_not_found", `No node ${nodeId} in session ${sessionId}.`);
    }
    return { ...node, reads: [...known] };
  }

  /**
   * Seals a streaming node whose fills stored the first `input.after` characters (Unicode
   * code points, as both databases count them) of its text: only `input.tail` travels and is
   * appended, so a reply's text reaches the database once in all ([R133]). The append is
   * guarded by the stored length in the same statement; when that does not match (a fill
   * whose outcome is unknown, text the database counts otherwise) nothing changes and the
   * answer is `null` — the caller then seals with the whole text ({@link seal}).
   */
  async sealAppending(
    sessionId: SessionId,
    nodeId: NodeId,
    input: Omit<SealInput, "content"> & { readonly tail: string; readonly after: number },
  ): Promise<LedgerNode | null> {
    const sealed = await this.write(async (tx) => {
      const appended = await tx.$executeRaw`
        UPDATE "Node" SET "content" = "content" || ${input.tail}
         WHERE "id" = ${nodeId} AND "sessionId" = ${sessionId} AND "status" = 'streaming'
           AND length("content") = ${input.after}`;
      if (appended === 0) {
        const streaming = await tx.node.count({
          where: { id: nodeId, sessionId, status: "streaming" },
        });
        if (streaming === 0) {
          throw new EngineError("conflict", `Node ${nodeId} is no longer streaming.`);
        }
        return false;
      }
      await tx.node.updateMany({
        where: { id: nodeId, sessionId, status: "streaming" },
        data: sealColumns(input),
      });
      return true;
    });
    return sealed ? this.sealed(sessionId, nodeId, input.known) : null;
  }

  /**
   * Seals streaming nodes whose writer is gone as `interrupted`, keeping their partial text.
   * `everything` seals every streaming node (a SQLite file has one writer process, so at
   * that process's start none can be alive); otherwise only those whose lease ran out.
   */
  async sealOrphans(input: { everything: boolean; sessionId?: SessionId }): Promise<number> {
    // Nearly always there is none: a read decides first, so loading a session does not take
    // the write lock (and, on SQLite, commit to disk) on every operation.
    if (!input.everything) {
      const now = await this.leaseClock(this.db);
      const orphan = await this.db.node.findFirst({
        where: {
          status: "streaming",
          ...(input.sessionId ? { sessionId: input.sessionId } : {}),
          leaseUntil: { lt: now },
        },
        select: { id: true },
      });
      if (orphan === null) return 0;
    }
    const { count } = await this.write(async (tx) => {
      const now = await this.leaseClock(tx);
      return tx.node.updateMany({
        where: {
          status: "streaming",
          ...(input.sessionId ? { sessionId: input.sessionId } : {}),
          ...(input.everything ? {} : { leaseUntil: { lt: now } }),
        },
        data: { status: "interrupted", leaseUntil: null },
      });
    });
    return count;
  }

  // ── HEAD ────────────────────────────────────────────────────────────────────────────

  /**
   * The single HEAD writer for explicit moves (send-turn advance aside, which is the
   * chain-extension rule of `append`). Validation of *which* moves are allowed lives in the
   * dispatcher; this checks only that the node belongs to the session.
   */
  async setHead(sessionId: SessionId, nodeId: NodeId): Promise<SessionRecord> {
    await this.write(async (tx) => {
      await this.lockSession(tx, sessionId);
      const n = await tx.node.count({ where: { id: nodeId, sessionId } });
      if (n === 0)
        throw new EngineError("node_not_found", `No node ${nodeId} in session ${sessionId}.`);
      await tx.session.update({ where: { id: sessionId }, data: { headId: nodeId } });
    });
    return this.getSession(sessionId);
  }

  /**
   * Branch delete, the explicit user act: `plan` decides from the session and the part of
   * its ledger it reads through `slice`, as they are *under the write lock*, which nodes go,
   * where HEAD lands and the meta after, so a turn racing the delete can never leave a node
   * whose predecessor is gone. The slice reads follow the (sessionId, predecessorId) index:
   * the cost is the branch and the tip's spine, never the ledger ([R116]).
   */
  async removeNodes(
    sessionId: SessionId,
    plan: (
      session: SessionRecord,
      slice: LedgerSlice,
    ) => Promise<{ ids: readonly NodeId[]; headAfter: NodeId | null; metaAfter?: SessionMeta }>,
  ): Promise<{ session: SessionRecord; removed: readonly NodeId[] }> {
    const removed = await this.write(async (tx) => {
      const row = await this.lockSession(tx, sessionId);
      const before = sessionFromRow(row);
      const decided = await plan(before, this.sliceOf(tx, sessionId));
      await tx.node.deleteMany({
        where: { sessionId, id: { in: [...decided.ids] }, kind: { not: "root" } },
      });
      await this.dropAttachmentsOf(tx, sessionId, decided.ids);
      const data: { headId?: string; meta?: string } = {};
      if (decided.headAfter && before.headId && decided.ids.includes(before.headId)) {
        data.headId = decided.headAfter;
      }
      if (decided.metaAfter) data.meta = encodeJson(decided.metaAfter);
      if (Object.keys(data).length > 0) {
        await tx.session.update({ where: { id: sessionId }, data });
      }
      return decided.ids;
    });
    this.finals.forget(sessionId, removed);
    return { session: await this.getSession(sessionId), removed };
  }

  // ── attachments (docs/spec.md "Attachments") ─────────────────────────────────────────

  /**
   * Stores an uploaded file, waiting for the turn that sends it: its blob (content-addressed
   * by SHA-256 within the session, written only if the session has no blob of that hash yet)
   * and its row, under the session's write lock.
   */
  async addAttachment(input: NewAttachment): Promise<StoredAttachment> {
    const id = this.deps.newNodeId();
    const now = this.deps.now();
    return this.write(async (tx) => {
      await this.lockSession(tx, input.sessionId);
      const existing = await tx.blob.count({
        where: { sessionId: input.sessionId, sha256: input.sha256 },
      });
      if (existing === 0) {
        await tx.blob.create({
          data: {
            sessionId: input.sessionId,
            sha256: input.sha256,
            size: input.data.byteLength,
            data: input.data as Uint8Array<ArrayBuffer>,
            text: input.text ?? null,
            createdAt: now,
          },
        });
      }
      const row = await tx.attachment.create({
        data: {
          id,
          sessionId: input.sessionId,
          sha256: input.sha256,
          name: input.name,
          mime: input.mime,
          kind: input.kind,
          size: input.data.byteLength,
          tokens: input.tokens,
          width: input.width ?? null,
          height: input.height ?? null,
          nodeId: null,
          createdAt: now,
        },
      });
      return attachmentFromRow(row);
    });
  }

  /** The session's attachments among `ids` (someone else's id is simply absent). */
  async attachmentsById(sessionId: SessionId, ids: readonly string[]): Promise<StoredAttachment[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.attachment.findMany({
      where: { sessionId, id: { in: [...new Set(ids)] } },
    });
    return rows.map(attachmentFromRow);
  }

  /** One attachment of the session, or null. */
  async attachmentRow(sessionId: SessionId, id: string): Promise<StoredAttachment | null> {
    const row = await this.db.attachment.findFirst({ where: { sessionId, id } });
    return row ? attachmentFromRow(row) : null;
  }

  /** The blobs of the session with these hashes: bytes and, for text, the text. */
  async blobs(
    sessionId: SessionId,
    sha256s: readonly string[],
  ): Promise<Map<string, { readonly data: Uint8Array; readonly text: string | null }>> {
    const out = new Map<string, { data: Uint8Array; text: string | null }>();
    if (sha256s.length === 0) return out;
    const rows = await this.db.blob.findMany({
      where: { sessionId, sha256: { in: [...new Set(sha256s)] } },
      select: { sha256: true, data: true, text: true },
    });
    for (const r of rows) out.set(r.sha256, { data: new Uint8Array(r.data), text: r.text });
    return out;
  }

  /** How many blobs the session holds (tests and the export read it). */
  async blobCount(sessionId: SessionId): Promise<number> {
    return this.db.blob.count({ where: { sessionId } });
  }

  /**
   * Claims `ids` for the node `nodeId` inside the append's transaction. The turn checked
   * them before (`attachmentsForTurn`: each an unsent upload of the session); what is left
   * is the race, another request claiming one meanwhile, and then nothing of the turn is
   * written.
   */
  private async claimAttachments(
    tx: Tx,
    sessionId: SessionId,
    nodeId: string,
    ids: readonly string[],
  ): Promise<void> {
    const wanted = [...new Set(ids)];
    const { count } = await tx.attachment.updateMany({
      where: { sessionId, id: { in: wanted }, nodeId: null },
      data: { nodeId },
    });
    if (count !== wanted.length) {
      throw new EngineError("attachment_in_use", "An attachment was sent by another request.");
    }
  }

  /**
   * Removes the attachments of deleted nodes, then every blob of the session no attachment
   * names any more (R272). Runs in the delete's transaction, under the session's lock.
   */
  private async dropAttachmentsOf(
    tx: Tx,
    sessionId: SessionId,
    nodeIds: readonly NodeId[],
  ): Promise<void> {
    const gone: string[] = [];
    for (let i = 0; i < nodeIds.length; i += COUNT_CHUNK) {
      const chunk = nodeIds.slice(i, i + COUNT_CHUNK);
      const rows = await tx.attachment.findMany({
        where: { sessionId, nodeId: { in: [...chunk] } },
        select: { sha256: true },
      });
      if (rows.length === 0) continue;
      gone.push(...rows.map((r) => r.sha256));
      await tx.attachment.deleteMany({ where: { sessionId, nodeId: { in: [...chunk] } } });
    }
    for (const sha256 of new Set(gone)) {
      const still = await tx.attachment.count({ where: { sessionId, sha256 } });
      if (still === 0) await tx.blob.deleteMany({ where: { sessionId, sha256 } });
    }
  }

  // ── internals ───────────────────────────────────────────────────────────────────────

  /** Structure reads of one session's ledger outside a transaction ({@link LedgerSlice}). */
  slice(sessionId: SessionId): LedgerSlice {
    return this.sliceOf(this.db, sessionId);
  }

  /** Reads of one session's ledger by structure, inside `tx` (see {@link LedgerSlice}). */
  private sliceOf(tx: Db | Tx, sessionId: SessionId): LedgerSlice {
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
   * Runs `fn` as one write transaction. Its first statement (lockSession) is an UPDATE of the
   * session row: on SQLite that takes the database write lock before any read (BEGIN
   * IMMEDIATE semantics), on PostgreSQL a row lock, so concurrent writers to one session
   * serialise. Conflicts (SQLITE_BUSY, 40001, 40P01) are retried.
   */
  /**
   * Rows as full nodes: `reads` stored as a reference are expanded to the explicit list
   * ([R134]). From the rows themselves when they are the whole ledger; otherwise with one
   * recursive query for the spines of every referenced head together (shared ancestors
   * walked once) and the summaries, reading only what the rendering rule decides from —
   * never one query per node.
   */
  private async toNodes(
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

  private write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return withWriteRetry(() => this.db.$transaction(fn, { maxWait: 10_000, timeout: 20_000 }));
  }

  /**
   * Takes the session's write lock with an UPDATE of its row (reserving the next seq when
   * asked); returns the row as updated.
   */
  private async lockSession(tx: Tx, id: SessionId, reserveSeq = false) {
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

  private async checkSummaryBase(
    tx: Tx,
    row: Parameters<typeof sessionFromRow>[0],
    expected: NonNullable<AppendInput["expectSummary"]>,
  ): Promise<void> {
    const current = activeSummaryIds(sessionFromRow(row).meta);
    if (
      current.length !== expected.activeIds.length ||
      current.some((id, i) => id !== expected.activeIds[i])
    ) {
      throw new EngineError(
        "compaction_conflict",
        "Another compaction of this session finished first; nothing was written.",
      );
    }
    const ids = [...new Set(expected.coversIds)];
    let present = 0;
    for (let i = 0; i < ids.length; i += COUNT_CHUNK) {
      present += await tx.node.count({
        where: { sessionId: row.id, id: { in: ids.slice(i, i + COUNT_CHUNK) } },
      });
    }
    if (present !== ids.length) {
      throw new EngineError(
        "compaction_conflict",
        "Part of the conversation being summarised was deleted meanwhile; nothing was written.",
      );
    }
  }

  /**
   * The clock leases are written and judged by. On PostgreSQL several instances share the
   * ledger, so it is the database's (`now()`): one instance's skewed clock can neither seal
   * another's live stream nor admit a second turn. A SQLite file has one server process
   * (lib/db/single-process.ts), whose own clock is the only one.
   */
  private async leaseClock(db: Db | Tx): Promise<Date> {
    if (this.kind !== "postgresql") return this.deps.now();
    const rows = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS "now"`;
    const now = rows[0]?.now;
    return now instanceof Date ? now : new Date(String(now));
  }

  private async requireSession(db: Db | Tx, id: SessionId): Promise<void> {
    const n = await db.session.count({ where: { id } });
    if (n === 0) throw new EngineError("session_not_found", `No session ${id}.`);
  }
}
