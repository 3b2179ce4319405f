import type { SessionId } from "../engine/ids";

/**
 * The sessions whose agent loop (or `/task` sub-agent) this process is running. Between
 * tool rounds nothing streams, so the live-lease check alone would let another turn, or a
 * compaction, land in the middle of the loop. Shared by the dispatcher and the compactor.
 */
export class AgentLoops {
  private readonly running = new Map<SessionId, number>();

  has(sessionId: SessionId): boolean {
    return this.running.has(sessionId);
  }

  /** Marks a loop as running; call the returned function exactly once when it ends. */
  enter(sessionId: SessionId): () => void {
    this.running.set(sessionId, (this.running.get(sessionId) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const n = (this.running.get(sessionId) ?? 1) - 1;
      if (n > 0) this.running.set(sessionId, n);
      else this.running.delete(sessionId);
    };
  }
}
