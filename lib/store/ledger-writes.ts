import { Prisma } from "../generated/prisma/client";
import { EngineError } from "../engine/errors";
import { asNodeId, LOCAL_OWNER, type NodeId, type SessionId } from "../engine/ids";
import type { CommittedEvent } from "../engine/events";
import type { HeadMove, LedgerNode, NodeKind, SessionMeta, SessionRecord } from "../engine/types";
import { leanNode } from "../engine/wire-node";
import { shouldAdvanceHead } from "../engine/should-advance-head";
import { isSideLeafKind } from "../engine/side-leaf";
import { activeSummaryIds } from "../engine/active-summaries";
import { UNTITLED } from "../engine/session-title";
import { DEFAULT_SYSTEM_PROMPT } from "../engine/system-prompt";
import { claimAttachments, dropAttachmentsOf } from "./attachments";
import { encodeJson, encodeReads, nodeFromRow, sessionFromRow } from "./codec";
import { insertNodeRows, sliceOf, type InsertedRow, type LedgerSlice } from "./node-rows";
import type {
  AppendInput,
  AppendResult,
  NewNode,
  NewSession,
  ReplyOpening,
  SummaryInsert,
  TurnOpened,
  TurnOpening,
} from "./append-inputs";
import type { SessionRows } from "./session-rows";
import { COUNT_CHUNK, type StoreContext, type Tx } from "./store-context";

/**
 * The writes of the ledger's structure and the only code that writes HEAD ([R62],
 * compaction.md §5): a session's creation (HEAD at ROOT), the appends — each applying the
 * chain-extension rule or the explicit fork move inside the write lock —, `setHead` (the
 * user's explicit moves) and branch delete. The ledger is append-only: a complete node is
 * never updated (a streaming reply is filled and sealed by lib/store/stream-leases.ts).
 * Each write announces what it changed once it has committed (`node_appended`,
 * `head_moved`, `nodes_removed`), from what it read under the lock.
 */
export interface LedgerWrites {
  createSession(input: NewSession): Promise<SessionRecord>;
  /** One node, complete or (with `leaseMs`) streaming. */
  appendNode(input: NewNode): Promise<AppendResult>;
  /** A turn's user node and its streaming reply, in one transaction, exclusive. */
  openTurn(input: TurnOpening): Promise<TurnOpened>;
  /** A streaming reply under an existing node. */
  openReply(input: ReplyOpening): Promise<AppendResult>;
  /** A compaction's summary, under its compare-and-swap. */
  appendSummary(input: SummaryInsert): Promise<AppendResult>;
  /** The user's explicit move of HEAD to `nodeId`, announced as `move`. */
  setHead(
    sessionId: SessionId,
    nodeId: NodeId,
    move: Extract<HeadMove, "checkout" | "rewind">,
  ): Promise<SessionRecord>;
  removeNodes(
    sessionId: SessionId,
    plan: (
      session: SessionRecord,
      slice: LedgerSlice,
    ) => Promise<{ ids: readonly NodeId[]; headAfter: NodeId | null; metaAfter?: SessionMeta }>,
  ): Promise<{ session: SessionRecord; removed: readonly NodeId[] }>;
}

export class LedgerWriter implements LedgerWrites {
  constructor(
    private readonly ctx: StoreContext,
    private readonly rows: Pick<SessionRows, "getSession">,
  ) {}
  /**
   * Creates a session with its ROOT node (the system prompt); HEAD starts at ROOT. A title
   * given here is the user's ([R105]); without one the session is "New chat" until its
   * first reply titles it.
   */
  async createSession(input: NewSession): Promise<SessionRecord> {
    const id = this.ctx.deps.newSessionId();
    const rootId = this.ctx.deps.newNodeId();
    const now = this.ctx.deps.now();
    const given = input.title?.trim();
    const title = given || UNTITLED;
    const meta: SessionMeta = {
      ...(given ? { titleSource: "user" as const } : {}),
      ...(input.settings ? { settings: input.settings } : {}),
    };
    await this.ctx.write(async (tx) => {
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
    return this.rows.getSession(id);
  }

  appendNode(input: NewNode): Promise<AppendResult> {
    return this.appendAnnounced(input);
  }

  async openTurn(input: TurnOpening): Promise<TurnOpened> {
    const result = await this.appendAnnounced({ ...input, exclusive: true });
    const { placeholder } = result;
    if (!placeholder) throw new Error("unreachable: the append opens the placeholder");
    return { ...result, placeholder, headOnPlaceholder: result.headOnPlaceholder === true };
  }

  openReply(input: ReplyOpening): Promise<AppendResult> {
    return this.appendAnnounced(input);
  }

  appendSummary(input: SummaryInsert): Promise<AppendResult> {
    return this.appendAnnounced(input);
  }

  /** {@link append}, announced once it has committed. */
  private async appendAnnounced(input: AppendInput): Promise<AppendResult> {
    const result = await this.append(input);
    this.ctx.announce(input.sessionId, ...appendEvents(result));
    return result;
  }

  /**
   * Appends one node under the session's write lock. HEAD moves to the new node only when
   * the node extends the chain (its predecessor is the current HEAD) and the turn allows it.
   */
  private append(input: AppendInput): Promise<AppendResult> {
    return this.ctx.write(async (tx) => {
      // The lock reserves the seqs of everything this write inserts (the placeholder too).
      const session = await this.ctx.lockSession(tx, input.sessionId, input.placeholder ? 2 : 1);
      const predecessorId =
        input.predecessorId === "head" ? asNodeId(session.headId ?? "") : input.predecessorId;
      // A send at HEAD compares and swaps: when HEAD is, under the lock, still the node the
      // turn planned on, that node exists (HEAD never rests on a removed node) and its kind is
      // the one the turn read (kinds never change) — it is not read again.
      const headHolds =
        input.predecessorKind !== undefined &&
        input.expectedHeadId === predecessorId &&
        session.headId === predecessorId;
      // The predecessor (unless HEAD holds), the lease clock and, for an exclusive write, the
      // live stream it judges: one read.
      const checks = await this.ctx.appendChecks(tx, input.sessionId, {
        predecessorId: headHolds ? undefined : predecessorId,
        live: input.exclusive === true,
      });
      const predecessorKind = headHolds ? input.predecessorKind : checks.predecessorKind;
      if (predecessorKind === null || predecessorKind === undefined) {
        throw new EngineError(
          "node_not_found",
          `No node ${predecessorId} in session ${input.sessionId}.`,
        );
      }
      // [R5], asserted where the write lands: nothing hangs off a summary or a notice.
      if (isSideLeafKind(predecessorKind as NodeKind)) {
        throw new EngineError(
          "invalid_target",
          `Nothing can be appended under a ${predecessorKind}: it is a side leaf.`,
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
      const { now, live } = checks;
      if (input.expectedHeadId !== undefined && session.headId !== input.expectedHeadId) {
        throw new EngineError(
          "conflict",
          "HEAD moved (another tab switched branches) while this turn was being prepared; send it again.",
        );
      }
      if (live !== null) {
        throw new EngineError(
          "turn_in_progress",
          "A reply is still streaming in this session; stop it or wait for it to finish.",
          { streamingId: live },
        );
      }
      const id = this.ctx.deps.newNodeId();
      const row: InsertedRow = {
        id,
        sessionId: input.sessionId,
        predecessorId,
        seq: session.nextSeq - (input.placeholder ? 2 : 1),
        kind: input.kind,
        content: input.content,
        status: input.status,
        callerId: input.callerId ?? null,
        metadata: encodeJson(input.metadata ?? {}),
        reads: encodeReads(input.readsRef ?? input.reads ?? []),
        tokenCount: input.tokenCount,
        leaseUntil:
          input.status === "streaming" ? new Date(now.getTime() + (input.leaseMs ?? 30_000)) : null,
        createdAt: now,
      };
      const placeholderRow: InsertedRow | undefined = input.placeholder && {
        id: this.ctx.deps.newNodeId(),
        sessionId: input.sessionId,
        predecessorId: id,
        seq: session.nextSeq - 1,
        kind: "assistant",
        content: "",
        status: "streaming",
        callerId: null,
        metadata: encodeJson(input.placeholder.metadata),
        reads: "[]",
        tokenCount: 0,
        leaseUntil: new Date(now.getTime() + input.placeholder.leaseMs),
        createdAt: now,
      };
      await insertNodeRows(tx, placeholderRow ? [row, placeholderRow] : [row]);
      if (input.attachmentIds && input.attachmentIds.length > 0) {
        await claimAttachments(tx, input.sessionId, id, input.attachmentIds);
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
      if (placeholderRow) {
        placeholder = nodeFromRow(placeholderRow);
        const extends_ = shouldAdvanceHead({
          currentHeadId: asNodeId(head ?? session.headId ?? ""),
          node: { kind: "assistant", predecessorId: asNodeId(id) },
          advanceHead: input.advanceHead,
        });
        if (extends_) head = placeholder.id;
      }
      const metaBefore = sessionFromRow(session).meta;
      const metaAfter = input.metaAfter ? input.metaAfter(metaBefore, node) : undefined;
      const meta = metaAfter ? encodeJson(metaAfter) : undefined;
      if (head !== null || meta !== undefined) {
        const sets = [
          ...(head !== null ? [Prisma.sql`"headId" = ${head}`] : []),
          ...(meta !== undefined ? [Prisma.sql`"meta" = ${meta}`] : []),
        ];
        await tx.$executeRaw`UPDATE "Session" SET ${Prisma.join(sets)} WHERE "id" = ${input.sessionId}`;
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

  /**
   * The single HEAD writer for explicit moves (send-turn advance aside, which is the
   * chain-extension rule of `append`). Validation of *which* moves are allowed lives in the
   * dispatcher; this checks only that the node belongs to the session.
   */
  async setHead(
    sessionId: SessionId,
    nodeId: NodeId,
    move: Extract<HeadMove, "checkout" | "rewind">,
  ): Promise<SessionRecord> {
    const previous = await this.ctx.write(async (tx) => {
      const row = await this.ctx.lockSession(tx, sessionId);
      const n = await tx.node.count({ where: { id: nodeId, sessionId } });
      if (n === 0)
        throw new EngineError("node_not_found", `No node ${nodeId} in session ${sessionId}.`);
      await tx.session.update({ where: { id: sessionId }, data: { headId: nodeId } });
      return row.headId === null ? null : asNodeId(row.headId);
    });
    this.ctx.announce(sessionId, {
      type: "head_moved",
      headId: nodeId,
      previousHeadId: previous,
      move,
    });
    return this.rows.getSession(sessionId);
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
    const { removed, head } = await this.ctx.write(async (tx) => {
      const row = await this.ctx.lockSession(tx, sessionId);
      const before = sessionFromRow(row);
      const decided = await plan(before, sliceOf(tx, sessionId));
      await tx.node.deleteMany({
        where: { sessionId, id: { in: [...decided.ids] }, kind: { not: "root" } },
      });
      await dropAttachmentsOf(tx, sessionId, decided.ids);
      const data: { headId?: string; meta?: string } = {};
      if (decided.headAfter && before.headId && decided.ids.includes(before.headId)) {
        data.headId = decided.headAfter;
      }
      if (decided.metaAfter) data.meta = encodeJson(decided.metaAfter);
      if (Object.keys(data).length > 0) {
        await tx.session.update({ where: { id: sessionId }, data });
      }
      const moved =
        data.headId !== undefined && data.headId !== before.headId
          ? { headId: asNodeId(data.headId), previousHeadId: before.headId }
          : null;
      return { removed: decided.ids, head: moved };
    });
    this.ctx.finals.forget(sessionId, removed);
    this.ctx.announce(sessionId, { type: "nodes_removed", ids: removed });
    if (head) this.ctx.announce(sessionId, { type: "head_moved", ...head, move: "delete_branch" });
    return { session: await this.rows.getSession(sessionId), removed };
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
}

/**
 * What an append announces: every node it wrote, then where HEAD went — onto the new node
 * (or its placeholder reply) as a `send` when it extended HEAD, as a `fork` when the user's
 * fork moved HEAD off its branch.
 */
function appendEvents(result: AppendResult): CommittedEvent[] {
  const { node, placeholder, previousHeadId } = result;
  const events: CommittedEvent[] = [{ type: "node_appended", node: leanNode(node) }];
  if (placeholder) events.push({ type: "node_appended", node: leanNode(placeholder) });
  if (result.headMoved || result.headOnPlaceholder) {
    events.push({
      type: "head_moved",
      headId: result.headOnPlaceholder && placeholder ? placeholder.id : node.id,
      previousHeadId,
      move: node.predecessorId === previousHeadId ? "send" : "fork",
    });
  }
  return events;
}
