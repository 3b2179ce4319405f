import type { SessionId } from "../engine/ids";
import type { EventBus, SessionEvent, SessionEventListener } from "./session-event";

/** In-process fan-out: the whole bus for one SQLite process, the local half on PostgreSQL. */
export class LocalBus implements EventBus {
  private readonly listeners = new Map<SessionId, Set<SessionEventListener>>();

  publish(sessionId: SessionId, event: SessionEvent): void {
    for (const listener of this.listeners.get(sessionId) ?? []) {
      try {
        listener(event);
      } catch (e) {
        // One broken subscriber (a closed SSE stream) must not starve the others.
        console.error("[spindle] event listener failed", e);
      }
    }
  }

  subscribe(sessionId: SessionId, listener: SessionEventListener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
    };
  }

  /** The sessions that have subscribers right now. */
  sessions(): SessionId[] {
    return [...this.listeners.keys()];
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
