import type { NodeId, SessionId } from "../engine/ids";
import type { LedgerNode } from "../engine/types";

/**
 * What the session channel carries (GET /api/sessions/:id/events). Large payloads are not
 * inlined across instances: a `node_appended` whose node is too big for a NOTIFY is
 * delivered as `node_changed`, and the client refetches the node.
 */
export type SessionEvent =
  | { readonly type: "node_appended"; readonly node: LedgerNode }
  | { readonly type: "node_changed"; readonly id: NodeId }
  | { readonly type: "delta"; readonly id: NodeId; readonly text: string }
  | { readonly type: "turn_finished"; readonly node: LedgerNode }
  | { readonly type: "head_moved"; readonly headId: NodeId }
  | { readonly type: "nodes_removed"; readonly ids: readonly NodeId[] }
  | { readonly type: "session_changed" }
  | { readonly type: "compaction_started"; readonly headId: NodeId }
  | {
      readonly type: "compaction_finished";
      readonly summary_id: NodeId;
      readonly coveredCount: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  | { readonly type: "compaction_failed"; readonly code: string; readonly message: string }
  | { readonly type: "notice"; readonly message: string };

export type SessionEventListener = (event: SessionEvent) => void;

/** Fans session events out to subscribers, in this process and (PostgreSQL) across instances. */
export interface EventBus {
  publish(sessionId: SessionId, event: SessionEvent): void;
  subscribe(sessionId: SessionId, listener: SessionEventListener): () => void;
  close(): Promise<void>;
}
