import { EngineError } from "../engine/errors";
import { asNodeId, asSessionId, type NodeId, type SessionId } from "../engine/ids";
import { COUNT_CHUNK, type StoreContext, type Tx } from "./store-context";
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

/**
 * Uploaded files (docs/spec.md "Attachments"): an upload waits for its turn; the turn's
 * first write claims it (lib/store/ledger-writes.ts, same transaction) and a branch delete
 * removes it with its nodes.
 */
export interface AttachmentStore {
  addAttachment(input: NewAttachment): Promise<StoredAttachment>;
  attachmentsById(sessionId: SessionId, ids: readonly string[]): Promise<StoredAttachment[]>;
  attachmentRow(sessionId: SessionId, id: string): Promise<StoredAttachment | null>;
  blobs(
    sessionId: SessionId,
    sha256s: readonly string[],
  ): Promise<Map<string, { readonly data: Uint8Array; readonly text: string | null }>>;
  blobCount(sessionId: SessionId): Promise<number>;
}

export class AttachmentRows implements AttachmentStore {
  constructor(private readonly ctx: StoreContext) {}

  /**
   * Stores an uploaded file, waiting for the turn that sends it: its blob (content-addressed
   * by SHA-256 within the session, written only if the session has no blob of that hash yet)
   * and its row, under the session's write lock.
   */
  async addAttachment(input: NewAttachment): Promise<StoredAttachment> {
    const id = this.ctx.deps.newNodeId();
    const now = this.ctx.deps.now();
    return this.ctx.write(async (tx) => {
      await this.ctx.lockSession(tx, input.sessionId);
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
    const rows = await this.ctx.db.attachment.findMany({
      where: { sessionId, id: { in: [...new Set(ids)] } },
    });
    return rows.map(attachmentFromRow);
  }

  /** One attachment of the session, or null. */
  async attachmentRow(sessionId: SessionId, id: string): Promise<StoredAttachment | null> {
    const row = await this.ctx.db.attachment.findFirst({ where: { sessionId, id } });
    return row ? attachmentFromRow(row) : null;
  }

  /** The blobs of the session with these hashes: bytes and, for text, the text. */
  async blobs(
    sessionId: SessionId,
    sha256s: readonly string[],
  ): Promise<Map<string, { readonly data: Uint8Array; readonly text: string | null }>> {
    const out = new Map<string, { data: Uint8Array; text: string | null }>();
    if (sha256s.length === 0) return out;
    const rows = await this.ctx.db.blob.findMany({
      where: { sessionId, sha256: { in: [...new Set(sha256s)] } },
      select: { sha256: true, data: true, text: true },
    });
    for (const r of rows) out.set(r.sha256, { data: new Uint8Array(r.data), text: r.text });
    return out;
  }

  /** How many blobs the session holds (tests and the export read it). */
  async blobCount(sessionId: SessionId): Promise<number> {
    return this.ctx.db.blob.count({ where: { sessionId } });
  }
}

/**
 * Claims `ids` for the node `nodeId` inside the append's transaction. The turn checked
 * them before (`attachmentsForTurn`: each an unsent upload of the session); what is left
 * is the race, another request claiming one meanwhile, and then nothing of the turn is
 * written.
 */
export async function claimAttachments(
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
export async function dropAttachmentsOf(
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
