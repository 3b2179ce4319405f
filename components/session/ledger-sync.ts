import { asNodeId, type NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import type { WireNode } from "@/lib/engine/wire-node";
import { mergeCopies, nodeOf, removeFromLedger, sameRecord, type Ledger } from "./ledger-merge";
import { MAX_IDS, type NodeSource } from "./node-source";

/** What the sync reads of the session store. */
export interface SyncedState extends Ledger {
  readonly session: SessionRecord;
  readonly syncedSeq: number;
  /** The tab holds the whole ledger (false until a near-first page's fill, [R294]). */
  readonly complete: boolean;
  readonly ownStreamId: NodeId | null;
}

/** How the sync changes the session store: its side effects, passed in (tests pass the store). */
export interface SyncPort {
  read(): SyncedState;
  merge(nodes: readonly WireNode[]): void;
  /**
   * Lands a ledger computed from `base` (a skeleton pass): what changed in the store since
   * `base` is laid over it ({@link rebase}), in one structural change.
   */
  land(base: Ledger, result: Ledger): void;
  remove(ids: readonly NodeId[]): void;
  setSession(session: SessionRecord): void;
  setSyncedSeq(seq: number): void;
  /** The fill brought the whole ledger ([R294]). */
  setComplete(): void;
  /** The fill's last attempt failed (true) or it landed (false). */
  setFillTrouble(trouble: boolean): void;
  /** Calls `listener` after every change of the store; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * Keeps one tab's ledger in step with the server ([R122], [R123]): catch-up after what it
 * missed, the prune of nodes deleted while it was not listening, full copies of nodes on
 * demand, and the wait for a stopped reply's seal. It holds the bookkeeping those need —
 * deleted ids, ids to refetch, requests in flight — and changes the store only through its
 * {@link SyncPort}.
 */
export class LedgerSync {
  /**
   * Removed ids. Ids are never reused, so a copy of one arriving later (a fetch answered
   * before the delete) is a ghost and is dropped.
   */
  private readonly removed = new Set<string>();
  /** Ids a `node_changed` event named: the next catch-up fetches them whole. */
  private readonly stale = new Set<NodeId>();
  /** ensureFull: ids asked for and not landed yet, each with the request that brings it. */
  private readonly inflight = new Map<NodeId, Promise<void>>();
  private queued: NodeId[] = [];
  private flushing: Promise<void> | null = null;
  private catching: Promise<void> | null = null;
  private again = false;
  /** `head_moved` events heard: a catch-up's record read before one of them is older. */
  private headMoves = 0;
  /** The skeleton pass in flight (a fill or a prune): one at a time, shared. */
  private pass: Promise<void> | null = null;

  constructor(
    private readonly source: NodeSource,
    private readonly port: SyncPort,
  ) {}

  /** A copy of this id is a ghost: the node was deleted. */
  isRemoved = (id: string): boolean => this.removed.has(id);

  /** These ids were deleted: their later copies are dropped. */
  forget(ids: readonly NodeId[]): void {
    for (const id of ids) this.removed.add(id);
  }

  /** A `node_changed` named it: the next catch-up fetches it whole. */
  markStale(id: NodeId): void {
    this.stale.add(id);
  }

  /** HEAD moved on the channel: a session record read before now is older than it. */
  headMoved(): void {
    this.headMoves++;
  }

  /**
   * Fetches what this tab missed ([R122]): the session record, the nodes after the synced
   * cursor (lean, page by page), and a full copy of every node it holds streaming or was
   * told changed. Never the whole ledger. Concurrent calls share one run (plus one rerun).
   */
  catchUp(): Promise<void> {
    if (this.catching) {
      this.again = true;
      return this.catching;
    }
    const run = async () => {
      try {
        do {
          this.again = false;
          await this.runCatchUp();
        } while (this.again);
      } finally {
        this.catching = null;
      }
    };
    this.catching = run();
    return this.catching;
  }

  /**
   * Brings the rest of a near-first page ([R294]): one skeleton pass over the ledger, in
   * columns, which also drops what was deleted meanwhile; then the tab is complete. Resolves
   * at once when it already is; concurrent calls share the pass. A failed pass is tried
   * again after 1, 2, 4, 8, 16 and then every 30 s until one lands — a page that stopped
   * trying would stay partial for good — and the store is told while it is retrying.
   */
  async fill(): Promise<void> {
    for (let attempt = 0; !this.port.read().complete; attempt++) {
      try {
        await this.skeletonPass();
        this.port.setFillTrouble(false);
      } catch {
        this.port.setFillTrouble(true);
        const wait = FILL_RETRIES[Math.min(attempt, FILL_RETRIES.length - 1)];
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /**
   * Full copies of these nodes where this tab holds only a lean or skeleton one ([R123]):
   * batched (at most 500 ids a request, calls in one tick coalesce) and deduplicated in
   * flight. Resolves when they landed; a failure leaves them partial, never an error.
   */
  ensureFull(ids: readonly NodeId[]): Promise<void> {
    const s = this.port.read();
    const waits = new Set<Promise<void>>();
    for (const id of ids) {
      const pending = this.inflight.get(id);
      if (pending) {
        waits.add(pending);
        continue;
      }
      if (nodeOf(s, id)?.partial === undefined) continue;
      this.queued.push(id);
      // Calls in the same tick (rows mounting together) share one flush.
      this.flushing ??= Promise.resolve().then(() => {
        const batch = this.queued;
        this.queued = [];
        this.flushing = null;
        return this.fetchFull(batch);
      });
      this.inflight.set(id, this.flushing);
      waits.add(this.flushing);
    }
    return Promise.all(waits).then(() => undefined);
  }

  /**
   * After Stop: resolves once the reply `id` is sealed here — its `turn_finished` arrives on
   * the session channel — or, if that has not happened within `ms`, after one catch-up
   * (which refetches every node held streaming). Never a polling loop ([R122]).
   */
  async awaitSeal(id: NodeId | null, ms: number): Promise<void> {
    const sealed = () => id !== null && this.port.read().live[id] === undefined;
    const seen = await new Promise<boolean>((resolve) => {
      if (id === null || sealed()) {
        resolve(id !== null);
        return;
      }
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(false);
      }, ms);
      const unsubscribe = this.port.subscribe(() => {
        if (!sealed()) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(true);
      });
    });
    if (!seen) await this.catchUp();
  }

  private async fetchFull(ids: readonly NodeId[]): Promise<void> {
    const batches: NodeId[][] = [];
    for (let i = 0; i < ids.length; i += MAX_IDS) batches.push(ids.slice(i, i + MAX_IDS));
    await Promise.all(
      batches.map(async (batch) => {
        try {
          this.port.merge(await this.source.byIds(batch));
        } catch {
          // Quiet: the nodes stay partial (their label shows) and a later ask retries.
        } finally {
          for (const id of batch) this.inflight.delete(id);
        }
      }),
    );
  }

  private async runCatchUp(): Promise<void> {
    const { source, port } = this;
    const movesBefore = this.headMoves;
    const refetch = [...new Set([...this.stale, ...Object.keys(port.read().live).map(idOf)])];
    this.stale.clear();
    const pages: WireNode[] = [];
    let session: SessionRecord;
    let synced = port.read().syncedSeq;
    let total: number | undefined;
    try {
      [session] = await Promise.all([
        source.session(),
        (async () => {
          let after: number | null = synced;
          while (after !== null) {
            const page = await source.after(after);
            // A loop, not push(...): a page may hold thousands of nodes.
            for (const n of page.nodes) pages.push(n);
            total = page.total;
            // A page that does not advance would loop forever: stop there.
            const next: number | null =
              page.nextAfterSeq !== null && page.nextAfterSeq > after ? page.nextAfterSeq : null;
            // Up to the last node this page brought everything is here (the page's
            // `lastSeq` is read beside it, so an append in between could sit below it).
            const last = page.nodes.at(-1)?.seq ?? after;
            synced = Math.max(synced, next ?? last);
            after = next;
          }
        })(),
        (async () => {
          for (let i = 0; i < refetch.length; i += MAX_IDS) {
            for (const n of await source.byIds(refetch.slice(i, i + MAX_IDS))) pages.push(n);
          }
        })(),
      ]);
    } catch (e) {
      // Not fetched: the next catch-up asks for them again.
      for (const id of refetch) this.stale.add(id);
      throw e;
    }
    const s = port.read();
    port.merge(pages);
    if (synced > port.read().syncedSeq) port.setSyncedSeq(synced);
    // A delete this tab missed (the channel was down) shows as a count that differs. Until
    // a near-first page is complete it always does: its fill is that pass ([R294]).
    if (total !== undefined && port.read().complete && total !== port.read().nodes.size) {
      await this.skeletonPass();
    }
    const own = s.ownStreamId;
    // During this tab's own turn its reply is HEAD even if the record was read just before;
    // a HEAD move heard on the channel while the record was in flight is newer than it.
    const keepHead =
      (own !== null && port.read().nodes.has(own) && s.session.headId === own) ||
      this.headMoves !== movesBefore;
    const next = keepHead ? { ...session, headId: port.read().session.headId } : session;
    // An unchanged record is not set again: no subscriber of `session` wakes for nothing.
    if (!sameRecord(port.read().session, next)) port.setSession(next);
  }

  private skeletonPass(): Promise<void> {
    this.pass ??= this.runSkeletonPass().finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  /**
   * One skeleton pass over every page ([R122]): the ids the server still has, merged (the
   * rest of a near-first page, [R294]) in one structural change. Held ids it no longer has
   * (up to the highest seq the pass saw, so a node appended meanwhile stays) were deleted
   * while this tab was not listening; they are dropped — never this tab's own streaming
   * reply. Then the tab holds the whole ledger.
   */
  private async runSkeletonPass(): Promise<void> {
    const held = this.port.read();
    const base: Ledger = {
      nodes: held.nodes,
      children: held.children,
      live: held.live,
      maxSeq: held.maxSeq,
    };
    // Merged page by page as each arrives, away from the store: each page costs its own
    // short task, and the store changes once, at the end ([R294]).
    let result = base;
    const alive = new Set<string>();
    let top = -1;
    let after: number | null = -1;
    while (after !== null) {
      const page = await this.source.skeleton(after);
      for (const n of page.nodes) {
        alive.add(n.id);
        top = Math.max(top, n.seq);
      }
      result = mergeCopies(result, page.nodes, this.isRemoved)?.ledger ?? result;
      after = page.nextAfterSeq !== null && page.nextAfterSeq > after ? page.nextAfterSeq : null;
    }
    // A copy the pass brought of a node deleted while it ran is a ghost.
    const ghosts = [...this.removed].filter((id) => result.nodes.has(id)).map(asNodeId);
    result = removeFromLedger(result, ghosts) ?? result;
    this.port.land(base, result);
    // Only a node held before the pass can be one the server no longer has: the pass
    // brought the others, and a node heard of since is newer than its pages.
    const s = this.port.read();
    const gone: NodeId[] = [];
    base.nodes.forEach((n) => {
      if (n.seq <= top && !alive.has(n.id) && n.id !== s.ownStreamId && s.nodes.has(n.id)) {
        gone.push(n.id);
      }
    });
    if (gone.length > 0) this.port.remove(gone);
    if (!this.port.read().complete) this.port.setComplete();
  }
}

/** The waits between a failed fill's attempts, in ms (the last one repeats). */
const FILL_RETRIES = [1000, 2000, 4000, 8000, 16_000, 30_000] as const;

/** The keys of `live` are node ids (the store writes them from nodes' ids). */
function idOf(key: string): NodeId {
  return asNodeId(key);
}
