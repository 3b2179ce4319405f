import type { EngineEvent, NodesRemovedEvent, SessionChangedEvent } from "../engine/events";
import type { NodeId, SessionId } from "../engine/ids";

/** An engine event as it travels on one session's channel (the session is the channel). */
type OnChannel<E> = E extends unknown ? Omit<E, "sessionId"> : never;

/**
 * What the session channel carries (GET /api/sessions/:id/events): the engine's events
 * (lib/engine/events.ts, product.md §4), plus three the browser needs to stay in sync —
 * `node_changed` (an event too large for a cross-instance NOTIFY: refetch that node alone,
 * `GET .../nodes?ids=<id>`),
 * `nodes_removed` (a branch delete) and `session_changed` (rename, settings).
 */
export type SessionEvent =
  | OnChannel<EngineEvent>
  | { readonly type: "node_changed"; readonly id: NodeId }
  | NodesRemovedEvent
  | SessionChangedEvent
  /**
   * Only on the reserved revocations channel, never a session's: an account's access (or
   * some of its credentials) was revoked; every instance aborts that work (lib/auth).
   */
  | {
      readonly type: "access_revoked";
      readonly revocation: {
        readonly ownerId: string;
        readonly credentials?: readonly string[];
        readonly cookiesExcept?: readonly string[];
      };
    };

export type SessionEventListener = (event: SessionEvent) => void;

/** Fans session events out to subscribers, in this process and (PostgreSQL) across instances. */
export interface EventBus {
  publish(sessionId: SessionId, event: SessionEvent): void;
  subscribe(sessionId: SessionId, listener: SessionEventListener): () => void;
  close(): Promise<void>;
}
