import type { ErrorCode } from "./errors";
import type { NodeId, SessionId, Tokens } from "./ids";
import type { CompactionTrigger, HeadMove } from "./types";
import type { WireNode } from "./wire-node";

/**
 * The names of the session channel's events (product.md §4, `GET .../events`). The SSE
 * `event:` field carries exactly these strings.
 */
export const ENGINE_EVENT_TYPES = [
  "node_appended",
  "delta",
  "turn_finished",
  "head_moved",
  "compaction_started",
  "compaction_finished",
  "compaction_failed",
  "notice",
] as const;

/** The `type` of an {@link EngineEvent}. */
export type EngineEventType = (typeof ENGINE_EVENT_TYPES)[number];

interface EventOf<T extends EngineEventType> {
  readonly type: T;
  readonly sessionId: SessionId;
}

/**
 * A node entered the ledger (a streaming reply is announced once, when it opens). Lean
 * ([R115]): its `reads` are left out; `GET .../nodes?ids=` has them.
 */
export interface NodeAppendedEvent extends EventOf<"node_appended"> {
  readonly node: WireNode;
}

/**
 * Text streamed into a streaming node; same `{id, text, offset}` as the turn stream's
 * `delta`. `offset` is where `text` starts in the node's content (in UTF-16 code units, as a
 * JavaScript string counts), so a receiver applies it exactly once, wherever its copy of the
 * content came from ([R89]).
 */
export interface DeltaEvent extends EventOf<"delta"> {
  readonly id: NodeId;
  readonly text: string;
  readonly offset: number;
}

/** A turn's reply was sealed (`complete`, `interrupted` or `error`); lean like the above. */
export interface TurnFinishedEvent extends EventOf<"turn_finished"> {
  readonly node: WireNode;
}

/** HEAD moved through one of the explicit moves of compaction.md §5. */
export interface HeadMovedEvent extends EventOf<"head_moved"> {
  readonly headId: NodeId;
  readonly previousHeadId: NodeId | null;
  readonly move: HeadMove;
}

/** A compaction began (manual, auto or reactive). */
export interface CompactionStartedEvent extends EventOf<"compaction_started"> {
  readonly trigger: CompactionTrigger;
  /** The head whose rendered view is being compacted. */
  readonly headId: NodeId;
}

/** What a compaction covered, for compaction_finished and the compact endpoint. */
export interface CompactionCounts {
  /** Ids in the new summary's covers_ids. */
  readonly covered: number;
  /** Of those, the ids no summary covered before. */
  readonly newlyCovered: number;
  /** Messages left verbatim after the summary. */
  readonly kept: number;
}

/** A summary was persisted; token counts are of HEAD's rendering before and after. */
export interface CompactionFinishedEvent extends EventOf<"compaction_finished"> {
  readonly trigger: CompactionTrigger;
  /** Named as in compaction.md §4. */
  readonly summary_id: NodeId;
  readonly counts: CompactionCounts;
  readonly tokensBefore: Tokens;
  readonly tokensAfter: Tokens;
}

/** A compaction ended without writing anything. */
export interface CompactionFailedEvent extends EventOf<"compaction_failed"> {
  readonly trigger: CompactionTrigger;
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * Why a user-visible notice was raised. `nesting_failed` (`nested`): the oldest summaries
 * could not be summarised again; they stay active.
 */
export const NOTICE_CODES = [
  "too_few_messages",
  "nothing_to_compact",
  "summary_not_smaller",
  "compaction_thrash",
  "compaction_latched",
  "local_command",
  "tool_round_limit",
  "nesting_failed",
] as const;

/** The `code` of a {@link NoticeEvent}. */
export type NoticeCode = (typeof NOTICE_CODES)[number];

/** A user-visible message that is not conversation (never sent to a model). */
export interface NoticeEvent extends EventOf<"notice"> {
  readonly code: NoticeCode;
  readonly message: string;
  /** The notice node, when one was written. */
  readonly nodeId: NodeId | null;
}

/** Everything the session channel broadcasts, discriminated by `type`. */
export type EngineEvent =
  | NodeAppendedEvent
  | DeltaEvent
  | TurnFinishedEvent
  | HeadMovedEvent
  | CompactionStartedEvent
  | CompactionFinishedEvent
  | CompactionFailedEvent
  | NoticeEvent;

/** Nodes left the ledger (a branch delete). Only on the session channel. */
export interface NodesRemovedEvent {
  readonly type: "nodes_removed";
  readonly ids: readonly NodeId[];
}

/** The session row changed (title, settings, compaction state). Only on the session channel. */
export interface SessionChangedEvent {
  readonly type: "session_changed";
}

/**
 * What a committed write announces on its session's channel. The store publishes these
 * itself, once the write's transaction has committed, from what it read under the write
 * lock (docs/architecture.md, "Events"); nothing else publishes them.
 */
export type CommittedEvent =
  | Omit<NodeAppendedEvent, "sessionId">
  | Omit<TurnFinishedEvent, "sessionId">
  | Omit<HeadMovedEvent, "sessionId">
  | NodesRemovedEvent
  | SessionChangedEvent;

/** Where the store publishes its committed writes (the event bus, in lib/server/services.ts). */
export interface CommittedEvents {
  publish(sessionId: SessionId, event: CommittedEvent): void;
}
