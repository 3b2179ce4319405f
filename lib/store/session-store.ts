import type { Database } from "../db/client";
import { AttachmentRows, type AttachmentStore } from "./attachments";
import { ImportStager, type ImportStaging } from "./import-staging";
import { LedgerReader, type LedgerReads } from "./ledger-reads";
import { LedgerWriter, type LedgerWrites } from "./ledger-writes";
import { SessionRowStore, type SessionRows } from "./session-rows";
import { StoreContext, type StoreDeps } from "./store-context";
import { StreamLeaseStore, type StreamLeases } from "./stream-leases";
import { TurnReader, type TurnReads } from "./turn-reads";

export type { StoreDeps } from "./store-context";
export type { SessionPage, SessionRows } from "./session-rows";
export type { ImportStaging } from "./import-staging";
export type { LedgerReads } from "./ledger-reads";
export type { LedgerSlice } from "./node-rows";
export type {
  AppendResult,
  NewNode,
  NewSession,
  ReplyOpening,
  SummaryInsert,
  TurnOpened,
  TurnOpening,
} from "./append-inputs";
export type { LedgerWrites } from "./ledger-writes";
export type { SealInput, StreamLeases } from "./stream-leases";
export type { TurnReads, TurnState } from "./turn-reads";
export type { AttachmentStore, NewAttachment, StoredAttachment } from "./attachments";

/**
 * The whole session store: every part over one database, clock and final-node cache. Only
 * the composition root (lib/server/services.ts) and tests hold it whole; every other
 * consumer takes the narrow interfaces it uses (docs/architecture.md).
 */
export type SessionStore = SessionRows &
  ImportStaging &
  LedgerReads &
  LedgerWrites &
  StreamLeases &
  TurnReads &
  AttachmentStore & { readonly kind: Database["kind"] };

/** `names` of `part`, bound to it. */
function bound<T extends object, K extends keyof T>(part: T, names: readonly K[]): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const name of names) {
    const fn = part[name];
    if (typeof fn !== "function") throw new Error(`${String(name)} is not a method`);
    out[name] = fn.bind(part) as T[K];
  }
  return out as Pick<T, K>;
}

/** The session store over `deps.database` (see {@link SessionStore}). */
export function openSessionStore(deps: StoreDeps): SessionStore {
  const ctx = new StoreContext(deps);
  const rows = new SessionRowStore(ctx);
  const reads = new LedgerReader(ctx);
  const leases = new StreamLeaseStore(ctx, reads);
  return {
    kind: ctx.kind,
    ...bound(rows, [
      "getSession",
      "ownerOf",
      "adoptLocalSessions",
      "listSessions",
      "renameSession",
      "setAutoTitle",
      "updateMeta",
      "deleteSession",
    ]),
    ...bound(new ImportStager(ctx, rows), ["importSession", "removeAbandonedImports"]),
    ...bound(reads, [
      "nodes",
      "node",
      "nodesById",
      "nodesAfter",
      "lastSeq",
      "nodeCount",
      "skeletonNodes",
      "versionsLeftOut",
      "spineIds",
      "spine",
      "spineOf",
      "slice",
    ]),
    ...bound(new LedgerWriter(ctx, rows), [
      "createSession",
      "appendNode",
      "openTurn",
      "openReply",
      "appendSummary",
      "setHead",
      "removeNodes",
    ]),
    ...bound(new TurnReader(ctx, leases), ["loadTurn"]),
    ...bound(leases, [
      "hasLiveStream",
      "appendStreaming",
      "stampReads",
      "seal",
      "sealAppending",
      "sealOrphans",
    ]),
    ...bound(new AttachmentRows(ctx), [
      "addAttachment",
      "attachmentsById",
      "attachmentRow",
      "blobs",
      "blobCount",
    ]),
  };
}
