import type { NodeId, OwnerId, SessionId, Tokens } from "../engine/ids";
import type {
  LedgerNode,
  NodeKind,
  NodeMetadata,
  NodeStatus,
  SessionMeta,
  SessionSettings,
} from "../engine/types";
import type { ReadsRef } from "../engine/reads-ref";

/*
 * What the append operations of lib/store/ledger-writes.ts take and answer: one input type
 * per operation instead of one input with behaviour flags.
 */
/** A node to append, as every append operation takes it. */
export interface NewNode {
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
}

/**
 * The explicit fork move (a send under `parentId`, a retry, an edit): HEAD moves to the new
 * node even though it does not extend HEAD's chain — in the same transaction as the insert.
 * Ignored when the turn's policy is `advanceHead = false`.
 */
export interface ForkMove {
  readonly forkMovesHead?: boolean;
}

/**
 * A turn's first write (`LedgerWrites.openTurn`): its user node and the streaming
 * reply under it, refused (`turn_in_progress`) while another reply of the session streams.
 */
export interface TurnOpening extends NewNode, ForkMove {
  /**
   * The HEAD the caller planned against: when HEAD moved since (another tab checked out),
   * the append is refused with `conflict` instead of landing on a branch nobody sees.
   */
  readonly expectedHeadId?: NodeId | null;
  /**
   * The predecessor's kind as the turn read it. With `expectedHeadId` equal to the
   * predecessor, the compare-and-swap on HEAD proves it exists, and it is not read again.
   */
  readonly predecessorKind?: NodeKind;
  /** The streaming reply opened under the new node, in the same transaction. */
  readonly placeholder: { readonly metadata: NodeMetadata; readonly leaseMs: number };
  /**
   * Uploaded attachments the new node is sent with: claimed in the same transaction (each
   * must belong to the session and not be claimed yet), so the node and its files land
   * together or not at all (R265).
   */
  readonly attachmentIds?: readonly string[];
}

/** A reply opened on its own (`LedgerWrites.openReply`): a tool round's, a retry's. */
export interface ReplyOpening extends NewNode, ForkMove {
  /** Refuse with `turn_in_progress` while another reply of the session is streaming. */
  readonly exclusive?: boolean;
}

/** A compaction's summary (`LedgerWrites.appendSummary`): head-neutral by its kind. */
export interface SummaryInsert extends NewNode {
  /**
   * Rewrites the session's meta in the same transaction, given the new node (a compaction's
   * summary moves `_last_summary_id` / `_last_summary_text` atomically with its insert).
   */
  readonly metaAfter?: (meta: SessionMeta, node: LedgerNode) => SessionMeta;
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

/** Every variant the one append transaction knows. */
export type AppendInput = NewNode &
  ForkMove &
  Partial<Omit<TurnOpening, keyof NewNode>> &
  Omit<ReplyOpening, keyof NewNode> &
  Omit<SummaryInsert, keyof NewNode>;
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

/** What `LedgerWrites.openTurn` answers: the append, and the reply it opened. */
export interface TurnOpened extends AppendResult {
  readonly placeholder: LedgerNode;
  readonly headOnPlaceholder: boolean;
}

/** A new session (see `LedgerWrites.createSession`). */
export interface NewSession {
  title?: string | undefined;
  systemPrompt?: string | undefined;
  /** Tokens of the system prompt (the budget prices ROOT like any message). */
  rootTokens?: Tokens | undefined;
  ownerId?: OwnerId;
  /** `meta.settings` from the start (validated by the caller, as `PATCH` validates them). */
  settings?: SessionSettings;
}
