import type { NodeId, SessionId } from "../engine/ids";
import type { LedgerNode } from "../engine/types";

/** Text held before the least recently used sessions are dropped: about 64 MiB of UTF-16. */
export const FINAL_NODES_BUDGET_CHARS = 32 * 1024 * 1024;

/** What one cached node costs besides its text and metadata (ids, kind, the entry). */
const NODE_OVERHEAD_CHARS = 256;

interface Held {
  readonly node: LedgerNode;
  /** What it counts against the budget: text, metadata (a summary's covers_ids, tool
   * calls' arguments) and the fixed part. */
  readonly cost: number;
}

interface SessionEntry {
  readonly nodes: Map<NodeId, Held>;
  chars: number;
}

function costOf(node: LedgerNode): number {
  const metadata =
    Object.keys(node.metadata).length === 0 ? 0 : JSON.stringify(node.metadata).length;
  return node.content.length + metadata + NODE_OVERHEAD_CHARS;
}

/**
 * A node's frozen copy without its `reads`, written out field by field. Not a frozen
 * spread (`Object.freeze({ ...node })`): V8 reads those several times slower — rendering a
 * 2,001-node spine from them took 7.3× as long as from the nodes as read, from these
 * 0.98× (bench/ledger.bench.ts) — and every warm turn renders its spine from this cache.
 */
function finalCopy(node: LedgerNode): LedgerNode {
  return Object.freeze({
    id: node.id,
    sessionId: node.sessionId,
    predecessorId: node.predecessorId,
    seq: node.seq,
    kind: node.kind,
    content: node.content,
    status: node.status,
    callerId: node.callerId,
    metadata: node.metadata,
    reads: [],
    tokenCount: node.tokenCount,
    createdAt: node.createdAt,
  });
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
 * Bounded by what it holds: past the budget, the least recently used sessions go. Copies
 * are frozen: every reader shares them.
 *
 * A read that began before a delete must not put the deleted nodes back: `remember` takes
 * the {@link epoch} seen before the read, and keeps nothing if a delete came in between.
 */
export class FinalNodes {
  private readonly sessions = new Map<SessionId, SessionEntry>();
  private chars = 0;
  private deletes = 0;

  constructor(private readonly budgetChars = FINAL_NODES_BUDGET_CHARS) {}

  /** Changes whenever something is forgotten: take it before a read, give it to remember. */
  get epoch(): number {
    return this.deletes;
  }

  get(sessionId: SessionId, id: NodeId): LedgerNode | undefined {
    return this.sessions.get(sessionId)?.nodes.get(id)?.node;
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
      const held = entry.nodes.get(id);
      if (held === undefined) return { above, missing: id };
      above.push(held.node);
      id = held.node.predecessorId;
    }
    return { above, missing: null };
  }

  /**
   * Keeps the final ones of `nodes` (read without `reads`) of `sessionId` — unless a delete
   * came since `epoch`, taken before they were read.
   */
  remember(sessionId: SessionId, nodes: readonly LedgerNode[], epoch: number): void {
    if (epoch !== this.deletes) return;
    let entry = this.sessions.get(sessionId);
    for (const node of nodes) {
      if (node.status === "streaming" || node.sessionId !== sessionId) continue;
      if (entry === undefined) {
        entry = { nodes: new Map(), chars: 0 };
        this.sessions.set(sessionId, entry);
      }
      if (entry.nodes.has(node.id)) continue;
      const cost = costOf(node);
      entry.nodes.set(node.id, { node: finalCopy(node), cost });
      entry.chars += cost;
      this.chars += cost;
    }
    if (entry !== undefined) this.touch(sessionId, entry);
    this.evict(sessionId);
  }

  /** Forgets removed nodes (a branch delete). */
  forget(sessionId: SessionId, ids: readonly NodeId[]): void {
    this.deletes += 1;
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    for (const id of ids) {
      const held = entry.nodes.get(id);
      if (held === undefined) continue;
      entry.nodes.delete(id);
      entry.chars -= held.cost;
      this.chars -= held.cost;
    }
  }

  /** Forgets a whole session (deleted). */
  forgetSession(sessionId: SessionId): void {
    this.deletes += 1;
    this.drop(sessionId);
  }

  private drop(sessionId: SessionId): void {
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
    if (this.chars > this.budgetChars && alone !== undefined) this.drop(keep);
  }
}
