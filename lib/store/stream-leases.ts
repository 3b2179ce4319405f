import type { NodeId, SessionId, Tokens } from "../engine/ids";
import { EngineError } from "../engine/errors";
import type { LedgerNode, NodeMetadata, NodeStatus } from "../engine/types";
import type { ReadsRef } from "../engine/reads-ref";
import { leanNode } from "../engine/wire-node";
import { encodeJson, encodeReads } from "./codec";
import type { LedgerReads } from "./ledger-reads";
import type { StoreContext } from "./store-context";
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
 * A streaming reply's life after it is opened: its fills renew a lease, its `reads` are
 * stamped once its prompt is rendered, it is sealed once; a reply whose writer is gone
 * (its lease ran out) is sealed `interrupted` by whoever finds it. A sealed node never
 * changes again. None of this moves HEAD.
 */
export interface StreamLeases {
  hasLiveStream(sessionId: SessionId): Promise<boolean>;
  appendStreaming(
    sessionId: SessionId,
    nodeId: NodeId,
    chunk: string,
    leaseMs?: number,
  ): Promise<void>;
  stampReads(
    sessionId: SessionId,
    nodeId: NodeId,
    reads: readonly NodeId[] | ReadsRef,
  ): Promise<void>;
  seal(sessionId: SessionId, nodeId: NodeId, input: SealInput): Promise<LedgerNode>;
  sealAppending(
    sessionId: SessionId,
    nodeId: NodeId,
    input: Omit<SealInput, "content"> & { readonly tail: string; readonly after: number },
  ): Promise<LedgerNode | null>;
  sealOrphans(input: { everything: boolean; sessionId?: SessionId }): Promise<number>;
}

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

export class StreamLeaseStore implements StreamLeases {
  constructor(
    private readonly ctx: StoreContext,
    private readonly reads: Pick<LedgerReads, "node" | "nodesById">,
  ) {}

  /** True while a reply of the session streams under a live lease. */
  async hasLiveStream(sessionId: SessionId): Promise<boolean> {
    const now = await this.ctx.leaseClock(this.ctx.db);
    const n = await this.ctx.db.node.count({
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
    const count = await this.ctx.write(async (tx) => {
      const leaseUntil = new Date((await this.ctx.leaseClock(tx)).getTime() + leaseMs);
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
    const { count } = await this.ctx.write((tx) =>
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
    const { count } = await this.ctx.write((tx) =>
      tx.node.updateMany({ where: { id: nodeId, sessionId, status: "streaming" }, data }),
    );
    if (count === 0) throw new EngineError("conflict", `Node ${nodeId} is no longer streaming.`);
    return this.sealed(sessionId, nodeId, input.known);
  }

  /**
   * A node just sealed, announced as `turn_finished`: with the reads the caller knows it
   * holds, or read back whole.
   */
  private async sealed(
    sessionId: SessionId,
    nodeId: NodeId,
    known: readonly NodeId[] | undefined,
  ): Promise<LedgerNode> {
    const node = await this.readSealed(sessionId, nodeId, known);
    this.ctx.announce(sessionId, { type: "turn_finished", node: leanNode(node) });
    return node;
  }

  private async readSealed(
    sessionId: SessionId,
    nodeId: NodeId,
    known: readonly NodeId[] | undefined,
  ): Promise<LedgerNode> {
    if (known === undefined) return this.reads.node(sessionId, nodeId);
    const [node] = await this.reads.nodesById(sessionId, [nodeId], { reads: false });
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
    const sealed = await this.ctx.write(async (tx) => {
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
      const now = await this.ctx.leaseClock(this.ctx.db);
      const orphan = await this.ctx.db.node.findFirst({
        where: {
          status: "streaming",
          ...(input.sessionId ? { sessionId: input.sessionId } : {}),
          leaseUntil: { lt: now },
        },
        select: { id: true },
      });
      if (orphan === null) return 0;
    }
    return this.sealExpired(input);
  }

  /**
   * {@link sealOrphans} without the read that decides first: for a caller that saw an
   * expired lease itself (a turn's load).
   */
  async sealExpired(input: { everything: boolean; sessionId?: SessionId }): Promise<number> {
    const { count } = await this.ctx.write(async (tx) => {
      const now = await this.ctx.leaseClock(tx);
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
}
