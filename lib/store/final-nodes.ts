import type { NodeId, SessionId } from "../engine/ids";
import type { LedgerNode } from "../engine/types";

/** Text held before the least recently used sessions are dropped: about 64 MiB of UTF-16. */
export const FINAL_NODES_BUDGET_CHARS = 32 * 1024 * 1024;

/** What one cached node costs besides its text (ids, kind, metadata, the entry itself). */
const NODE_OVERHEAD_CHARS = 256;

interface SessionEntry {
  readonly nodes: Map<NodeId, LedgerNode>;
  chars: number;
}

/**
 * The nodes of each session that can never change again, without their `reads`: what a
 * spine walk reads ([R136]). A node is final once it is not streaming — the ledger is
 * append-only, a sealed node is never updated, and ids are never reused — so a copy read
 * once stays true for as long as the node exists, on every instance. Only a delete ends
 * it: the store forgets removed ids and deleted sessions here, and a walk never reaches a
 * node another instance removed, because a node's predecessor outlives it.
 *
 * Keyed by session first, so a lookup can only ever answer a node of the session it names.
 * Bounded by the text it holds: past the budget, the least recently used sessions go.
 */
export class FinalNodes {
  private readonly sessions = new Map<SessionId, SessionEntry>();
  private chars = 0;

  constructor(private readonly budgetChars = FINAL_NODES_BUDGET_CHARS) {}

  get(sessionId: SessionId, id: NodeId): LedgerNode | undefined {
    return this.sessions.get(sessionId)?.nodes.get(id);
  }

  /**
   * The cached stretch of `headId`'s spine, bottom up, and the first id the cache does not
   * hold (null when the walk reached ROOT). The session becomes the most recently used.
   */
  walk(sessionId: SessionId, headId: NodeId): { above: LedgerNode[]; missing: NodeId | null } {
    const entry = this.sessions.get(sessionId);
    const above: LedgerNode[] = [];
    if (entry === undefined) return { above, missing: headId };
    this.touch(sessionId, entry);
    let id: NodeId | null = headId;
    while (id !== null) {
      const node = entry.nodes.get(id);
      if (node === undefined) return { above, missing: id };
      above.push(node);
      id = node.predecessorId;
    }
    return { above, missing: null };
  }

  /** Keeps the final ones of `nodes` (read without `reads`) of `sessionId`. */
  remember(sessionId: SessionId, nodes: readonly LedgerNode[]): void {
    let entry = this.sessions.get(sessionId);
    for (const node of nodes) {
      if (node.status === "streaming" || node.sessionId !== sessionId) continue;
      if (entry === undefined) {
        entry = { nodes: new Map(), chars: 0 };
        this.sessions.set(sessionId, entry);
      }
      if (entry.nodes.has(node.id)) continue;
      const cost = node.content.length + NODE_OVERHEAD_CHARS;
      entry.nodes.set(node.id, node.reads.length === 0 ? node : { ...node, reads: [] });
      entry.chars += cost;
      this.chars += cost;
    }
    if (entry !== undefined) this.touch(sessionId, entry);
    this.evict(sessionId);
  }

  /** Forgets removed nodes (a branch delete). */
  forget(sessionId: SessionId, ids: readonly NodeId[]): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    for (const id of ids) {
      const node = entry.nodes.get(id);
      if (node === undefined) continue;
      const cost = node.content.length + NODE_OVERHEAD_CHARS;
      entry.nodes.delete(id);
      entry.chars -= cost;
      this.chars -= cost;
    }
  }

  /** Forgets a whole session (deleted, or its ledger replaced). */
  forgetSession(sessionId: SessionId): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    this.chars -= entry.chars;
    this.sessions.delete(sessionId);
  }

  /** Text held, in UTF-16 units plus the per-node allowance (for tests and the budget). */
  get heldChars(): number {
    return this.chars;
  }

  private touch(sessionId: SessionId, entry: SessionEntry): void {
    // A Map iterates in insertion order: re-inserting makes the session the newest.
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, entry);
  }

  /** Drops the least recently used sessions until the text fits, never `keep`. */
  private evict(keep: SessionId): void {
    for (const [id, entry] of this.sessions) {
      if (this.chars <= this.budgetChars) return;
      if (id === keep) continue;
      this.chars -= entry.chars;
      this.sessions.delete(id);
    }
    // One session alone over the budget: start it afresh rather than grow without bound.
    const alone = this.sessions.get(keep);
    if (this.chars > this.budgetChars && alone !== undefined) this.forgetSession(keep);
  }
}
