import { LOCAL_OWNER, type OwnerId } from "../engine/ids";
import type { ImportPlan, SessionRecord } from "../engine/types";
import { yieldToEventLoop } from "../yield-to-event-loop";
import { encodeJson, encodeReads } from "./codec";
import type { SessionRows } from "./session-rows";
import type { StoreContext } from "./store-context";

/**
 * Import staging: an imported ledger is written as a new session nobody sees until its last
 * batch lands, and a staged session whose writer died is removed. The new session's HEAD is
 * the one the file names — set with the row, as `createSession` sets ROOT's; no HEAD moves.
 */
export interface ImportStaging {
  importSession(plan: ImportPlan, ownerId?: OwnerId): Promise<SessionRecord>;
  removeAbandonedImports(olderThanMs: number): Promise<number>;
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

export class ImportStager implements ImportStaging {
  constructor(
    private readonly ctx: StoreContext,
    private readonly rows: Pick<SessionRows, "getSession">,
  ) {}

  /**
   * Writes an imported ledger (already re-ided and checked) as one new session. A big ledger
   * goes in bounded transactions that yield between batches, so the server keeps answering
   * meanwhile; until the last batch lands the session belongs to a staging owner nobody is,
   * so nobody sees it half-written, and a failure removes it. A server that dies mid-import
   * leaves a staged session that `removeAbandonedImports` deletes.
   */
  async importSession(plan: ImportPlan, ownerId: OwnerId = LOCAL_OWNER): Promise<SessionRecord> {
    const id = this.ctx.deps.newSessionId();
    const now = this.ctx.deps.now();
    await this.ctx.db.session.create({
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
        await this.ctx.write(async (tx) => {
          await tx.node.createMany({ data: rows });
          // The heartbeat that tells other instances this import is alive.
          await tx.session.update({ where: { id }, data: { updatedAt: this.ctx.deps.now() } });
        });
        await yieldToEventLoop();
      }
      // The files of the nodes (R271): one blob and its rows at a time.
      for (const blob of plan.blobs ?? []) {
        await this.ctx.write(async (tx) => {
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
        await this.ctx.db.attachment.createMany({
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
      await this.ctx.db.session.update({ where: { id }, data: { ownerId } });
    } catch (e) {
      // The import's own error is the one to report, whatever the clean-up meets.
      await this.ctx.db.session.deleteMany({ where: { id } }).catch(() => undefined);
      throw e;
    }
    return this.rows.getSession(id);
  }

  /** Deletes sessions whose import began over `olderThanMs` ago and never finished. */
  async removeAbandonedImports(olderThanMs: number): Promise<number> {
    const { count } = await this.ctx.db.session.deleteMany({
      where: {
        ownerId: { startsWith: IMPORTING },
        updatedAt: { lt: new Date(this.ctx.deps.now().getTime() - olderThanMs) },
      },
    });
    return count;
  }
}
