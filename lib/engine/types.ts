import type { NodeId, SessionId, Tokens } from "./ids";

/** product.md §2. `notice` nodes are shown to the user and never sent to a model. */
export type NodeKind = "root" | "user" | "assistant" | "tool" | "summary" | "notice";
/** A node's lifecycle: only `streaming` nodes ever change, once, to one of the others. */
export type NodeStatus = "complete" | "streaming" | "interrupted" | "error";

/** One tool call an assistant made (OpenAI's function-call shape). */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON argument string, as the model produced it. */
  readonly arguments: string;
}

/** Free-form JSON on a node; the keys below have fixed meanings. */
export interface NodeMetadata {
  /**
   * Summaries only: the contiguous chain segment of real turns this summary stands in for —
   * or, on a nested summary (`covers_summaries: true`), the summaries it stands in for.
   */
  readonly covers_ids?: readonly NodeId[];
  /** A nested summary (compaction.md §7): its covers_ids name summaries, oldest first. */
  readonly covers_summaries?: boolean;
  readonly model?: string;
  readonly finish_reason?: string;
  readonly tool_calls?: readonly ToolCall[];
  /** Tool results: the call they answer. */
  readonly tool_call_id?: string;
  readonly usage?: {
    readonly promptTokens: number;
    readonly completionTokens: number;
    /** Prompt tokens the provider served from its cache, when it says. */
    readonly cachedTokens?: number;
  };
  readonly error?: { readonly code: string; readonly message: string };
  /** User nodes: the files sent with the message, in the order given (R265). */
  readonly attachments?: readonly AttachmentRef[];
  readonly [key: string]: unknown;
}

/**
 * A file attached to a user node, as its metadata names it (docs/spec.md "Attachments"). The
 * bytes live in the session's content-addressed blob `sha256`; `tokens` is what the file
 * costs in a prompt (image tiles, or the fenced text block) and is already part of the
 * node's `tokenCount`.
 */
export interface AttachmentRef {
  readonly id: string;
  readonly name: string;
  /**
   * Judged from the content: an image type, `text/plain`, or `application/pdf` (read as the
   * text it holds).
   */
  readonly mime: string;
  readonly size: number;
  readonly sha256: string;
  readonly tokens: number;
  readonly width?: number;
  readonly height?: number;
}

/** The attachments a node's metadata names (empty for every other node). */
export function attachmentsOf(node: { readonly metadata: NodeMetadata }): readonly AttachmentRef[] {
  const list: unknown = node.metadata.attachments;
  return Array.isArray(list) ? (list as readonly AttachmentRef[]) : [];
}

/**
 * One ledger entry. Invariant: once `status` is not `streaming`, nothing about the node
 * changes again; `predecessorId` is null only for the session's ROOT.
 */
export interface LedgerNode {
  readonly id: NodeId;
  readonly sessionId: SessionId;
  readonly predecessorId: NodeId | null;
  /** Per-session insertion order: display only, never used for coverage. */
  readonly seq: number;
  readonly kind: NodeKind;
  readonly content: string;
  readonly status: NodeStatus;
  readonly callerId: NodeId | null;
  readonly metadata: NodeMetadata;
  /** Provenance: the ids whose content entered the prompt that produced this node. */
  readonly reads: readonly NodeId[];
  /** Tokens of `content`, counted once when the node was sealed. */
  readonly tokenCount: Tokens;
  /** ISO-8601 timestamp. */
  readonly createdAt: string;
}

/** Per-session overrides of the server defaults (`meta.settings`, product.md §4). */
export interface SessionSettings {
  readonly model?: string;
  readonly contextWindow?: number;
  readonly keepRecentTokens?: number;
  readonly autoCompact?: boolean;
  /** Offer the function tools (`task`, `send_message`); default: when the model calls tools. */
  readonly tools?: boolean;
  /** Send images to the model; default: when the model registry marks it `vision`. */
  readonly vision?: boolean;
  /** Tool rounds one turn may run before it ends with a notice (default 8). */
  readonly toolRounds?: number;
  /** How compaction keeps its summaries (compaction.md §7); default `rolling-single`. */
  readonly policy?: SummaryPolicy;
}

/**
 * How compaction keeps its summaries (compaction.md §7). `rolling-single`: one summary,
 * replaced at every compaction. `segmented`: one summary per compacted segment, earlier
 * ones kept. `nested`: segments, and the oldest summaries summarised again when they grow.
 */
export const SUMMARY_POLICIES = ["rolling-single", "segmented", "nested"] as const;
export type SummaryPolicy = (typeof SUMMARY_POLICIES)[number];

/**
 * Who chose the session's title: `user` (given at creation, a rename, an import) or `auto`
 * (written after the first reply). Absent while the session is still untitled ("New chat"):
 * only then may an automatic title be written.
 */
export type TitleSource = "user" | "auto";

/** The session's JSON meta; the keys below have fixed names on the wire. */
export interface SessionMeta {
  readonly _last_summary_id?: NodeId;
  readonly _last_summary_text?: string;
  /**
   * The active set when it is not the single `_last_summary_id` (a session that compacted
   * under `segmented` or `nested`): summary ids in the order they were written. Present,
   * it replaces `_last_summary_id` / `_last_summary_text`, which are then absent.
   */
  readonly _active_summary_ids?: readonly NodeId[];
  readonly settings?: SessionSettings;
  /** Older spelling of `settings.policy`, still read (an import could set it). */
  readonly policy?: SummaryPolicy;
  readonly titleSource?: TitleSource;
  /** A session made by "new session from this branch": the branch tip it copied. */
  readonly forkedFrom?: { readonly sessionId: SessionId; readonly nodeId: NodeId };
  readonly [key: string]: unknown;
}

/** A session as stored (wire shape: product.md §4). */
export interface SessionRecord {
  readonly id: SessionId;
  readonly title: string;
  readonly headId: NodeId | null;
  readonly rootId: NodeId | null;
  readonly meta: SessionMeta;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A whole session to write at once, already re-ided and checked: an imported ledger, or a
 * branch copied under a new ROOT. The store writes it; portability plans it.
 */
export interface ImportPlan {
  readonly title: string;
  readonly headId: NodeId;
  readonly rootId: NodeId;
  readonly meta: SessionMeta;
  /** Nodes with fresh ids, in seq order; `sessionId` is filled by the store. */
  readonly nodes: readonly Omit<LedgerNode, "sessionId">[];
  /** The attachments of the nodes (fresh ids), each naming its node and its blob. */
  readonly attachments?: readonly (AttachmentRef & {
    readonly nodeId: NodeId;
    readonly kind: string;
  })[];
  /** The blobs they name, verified against their SHA-256 and size. */
  readonly blobs?: readonly {
    readonly sha256: string;
    readonly data: Uint8Array;
    readonly text: string | null;
  }[];
}

/**
 * A row of the session list: the session and the size of its DAG.
 */
export interface SessionListItem extends SessionRecord {
  /** Every node of the ledger: ROOT, turns, summaries and notices. */
  readonly nodeCount: number;
  /**
   * Branch tips: nodes that are not side leaves and have no child but side leaves (a
   * session that holds only its ROOT has one, empty, branch).
   */
  readonly branchCount: number;
}

/** What the list of a user's keys shows: never the key, never its hash. */
export interface ApiKeyInfo {
  readonly id: string;
  readonly name: string;
  /** The key's first characters, to tell keys apart. */
  readonly prefix: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

/** A lookup into one session's ledger; `undefined` when no such node exists. */
export type NodeLookup = (id: NodeId) => LedgerNode | undefined;

/**
 * The explicit, user-facing HEAD moves of compaction.md §5 — the only reasons `setHead` is
 * ever called. `send` is the chain-extension advance of a turn; `fork` a send under a
 * `parentId`, a retry or an edit.
 */
export type HeadMove = "send" | "fork" | "checkout" | "rewind" | "delete_branch";

/** What started a compaction (compaction.md §4): `/compact`, the 80% budget, or an overflow. */
export type CompactionTrigger = "manual" | "auto" | "reactive";
