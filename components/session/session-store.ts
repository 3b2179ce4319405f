"use client";

import { createStore } from "zustand/vanilla";
import type { NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import type { SessionEvent } from "@/lib/events/session-event";
import { httpNodeSource, MAX_IDS, type NodeSource } from "./node-source";
import { firstLine } from "@/lib/engine/wire-node";
import type { WireNode } from "@/lib/engine/wire-node";

/** What the page knows about the model and its window (from the server; never a key). */
export interface ModelInfo {
  readonly label: string;
  /** The model's name as the provider knows it (what a turn's `model` names). */
  readonly name: string;
  readonly offline: boolean;
  readonly window: number;
  readonly keepRecentTokens: number;
  readonly notice: string | null;
  /** Whether the server's model reads images, by the registry (issue 24). */
  readonly vision: boolean;
}

/**
 * A request to the graph's view (issue 20), made where the user acted: frame what a reply
 * read ("What did it read?"), or keep a message whose version was switched (`‹ ›`) where it
 * is on screen — `from` is the version shown before, `head` where HEAD is about to go.
 */
export type ViewIntent =
  | { readonly kind: "reads"; readonly id: NodeId }
  | { readonly kind: "version"; readonly id: NodeId; readonly from: NodeId; readonly head: NodeId };

/** A view intent as the store holds it, numbered so that each is acted on once. */
export type ViewRequest = ViewIntent & { readonly nonce: number };

/** What the page shows of a summary's audit (`SummaryAudit`, docs/api.md). */
export interface AuditFigure {
  readonly id: string;
  readonly summaryId: string;
  readonly mode: "model" | "offline";
  /** The model audit's mean score 0–5; null offline. */
  readonly score: number | null;
  /** Probes whose values the summary states, of all. */
  readonly found: number;
  readonly total: number;
  readonly createdAt: string;
}

/**
 * The single live source of one session in the browser: the transcript and the graph both
 * read it, neither keeps a copy.
 *
 * Why two slices of nodes ([R120]): a session holds thousands of nodes and a reply streams
 * hundreds of tokens. Everything whole-ledger (the graph build, the children index, the
 * sorted list, HEAD's rendering) is keyed on `nodes`, which changes only on a structural
 * change — a node appears, seals, is removed, or a fuller copy arrives. A token changes
 * only `live`, a record of the few streaming nodes' latest copies: copying it is O(number of
 * streams), and only the components that read one streaming node (its message row)
 * re-render. A streaming node's entry in `nodes` keeps the text it had when it last changed
 * structurally; readers that show text ask `nodeOf` (live first).
 */
export interface SessionState {
  readonly session: SessionRecord;
  /** The ledger by id. Replaced (never mutated) on a structural change, never per token. */
  readonly nodes: Readonly<Record<string, WireNode>>;
  /** Children ids by predecessor id, in seq order. Maintained with `nodes`. */
  readonly children: Readonly<Record<string, readonly NodeId[]>>;
  /** The streaming nodes' latest copies; its keys are the set of streaming ids. */
  readonly live: Readonly<Record<string, WireNode>>;
  /** The highest seq this tab holds. Never decreases. */
  readonly maxSeq: number;
  /**
   * The synced cursor, where a catch-up starts ([R122]): every node with a seq up to it has
   * reached this tab. It advances only on catch-up pages and on channel events received
   * while the channel is open that are contiguous with it — never on this tab's own turn
   * stream, which may run ahead of seqs another writer committed while the channel was down.
   */
  readonly syncedSeq: number;
  /** The session channel is open (its `ready` arrived and it has not failed since). */
  readonly channelOpen: boolean;
  /** Bumped on every structural change (what the whole-ledger memos are keyed on). */
  readonly version: number;
  /**
   * Replaced when the graph could look different: a node appears, seals, is removed, or
   * changes what its card shows. A fuller copy of a sealed node whose card stays the same
   * (a skeleton's label → its whole text, a lean copy → its reads) keeps it, so the graph
   * is not rebuilt nor laid out again for content on demand ([R120]). The graph's rows may
   * then hold the label: its readers of text or reads ask the store (`nodes`).
   */
  readonly graphKey: object;
  readonly model: ModelInfo;
  /** The reply this tab is streaming through its own POST (deltas from the bus skip it). */
  readonly ownStreamId: NodeId | null;
  /** A request of this tab is in flight (send, retry, compact…). */
  readonly busy: "turn" | "compact" | "task" | "send" | null;
  readonly error: string | null;
  readonly notice: string | null;
  readonly selectedId: NodeId | null;
  /** A request to bring a transcript row into view (search result, graph selection). */
  readonly reveal: { readonly id: NodeId; readonly nonce: number } | null;
  /** The latest request to the graph's view; each is acted on once (by its nonce). */
  readonly viewRequest: ViewRequest | null;
  readonly expanded: Readonly<Record<string, true>>;
  readonly showRelics: boolean;
  /** The latest audit of each summary this tab knows (issue 22), by summary id. */
  readonly audits: Readonly<Record<string, AuditFigure>>;

  setSession(session: SessionRecord): void;
  /** Merges copies of nodes by the never-regress rule ([R121]); one structural change at most. */
  merge(nodes: readonly WireNode[]): void;
  upsertNode(node: WireNode): void;
  /**
   * Applies streamed text that starts at `offset` of the node's content: text this copy
   * already has is skipped, so a chunk never lands twice. Returns false when the chunk
   * starts past the end of this copy (text was missed): the node must be refetched.
   */
  appendDelta(id: NodeId, text: string, offset: number): boolean;
  removeNodes(ids: readonly NodeId[]): void;
  setHead(headId: NodeId): void;
  setOwnStream(id: NodeId | null): void;
  setChannelOpen(open: boolean): void;
  setBusy(busy: SessionState["busy"]): void;
  setError(error: string | null): void;
  setNotice(notice: string | null): void;
  /** Records audits; for each summary the newest one is kept. */
  setAudits(audits: readonly AuditFigure[]): void;
  select(id: NodeId | null): void;
  revealNode(id: NodeId): void;
  requestView(intent: ViewIntent): void;
  toggleCapsule(id: NodeId): void;
  toggleRelics(): void;
  /**
   * Fetches what this tab missed ([R122]): the session record, the nodes after `maxSeq`
   * (lean, page by page), and a full copy of every node it holds streaming or was told
   * changed. Never the whole ledger. Concurrent calls share one run (plus one rerun).
   */
  catchUp(): Promise<void>;
  /**
   * Full copies of these nodes where this tab holds only a lean or skeleton one ([R123]):
   * batched (at most 500 ids a request, calls in one tick coalesce) and deduplicated in
   * flight. Resolves when they landed; a failure leaves them partial, never an error.
   */
  ensureFull(ids: readonly NodeId[]): Promise<void>;
  /**
   * After Stop: resolves once the reply `id` is sealed here — its `turn_finished` arrives on
   * the session channel — or, if that has not happened within `ms`, after one catch-up
   * (which refetches every node held streaming). Never a polling loop ([R122]).
   */
  awaitSeal(id: NodeId | null, ms: number): Promise<void>;
  /** Applies a session-channel event; returns true when the page should catch up. */
  apply(event: SessionEvent): boolean;
}

export type SessionStoreApi = ReturnType<typeof createSessionStore>;

/** How complete a copy is: full 2, lean 1, skeleton 0. */
function rank(n: WireNode): number {
  return n.partial === undefined ? 2 : n.partial === "reads" ? 1 : 0;
}

/** A lean copy completed with a full copy's provenance (lean + reads = full). */
function withReads(lean: WireNode, from: WireNode): WireNode {
  if (rank(lean) !== 1 || rank(from) !== 2) return lean;
  const { partial, ...rest } = lean;
  void partial;
  return { ...rest, reads: from.reads };
}

/**
 * Of two copies of one node, the later one ([R121]). A node only ever moves forward —
 * streaming with more text, then sealed once, after which nothing about it changes — and a
 * copy only ever gets fuller: a sealed copy beats a streaming one, while streaming the longer
 * text wins, and of two sealed copies the fuller (full > lean > skeleton) wins. Returns `a`
 * itself when `b` adds nothing, so callers can tell "no change" by identity.
 */
export function newer(a: WireNode, b: WireNode): WireNode {
  const aSealed = a.status !== "streaming";
  const bSealed = b.status !== "streaming";
  if (aSealed && bSealed) return rank(b) > rank(a) ? b : a;
  if (aSealed) return a;
  if (bSealed) return withReads(b, a);
  if (b.content.length > a.content.length) return withReads(b, a);
  if (b.content.length === a.content.length && rank(b) > rank(a)) return b;
  return a;
}

/** The current copy of a node: a streaming node's live text first. */
export function nodeOf(s: SessionState, id: string): WireNode | undefined {
  return s.live[id] ?? s.nodes[id];
}

/** True when the record has a key: O(1), unlike `Object.keys(..).length`. */
function hasAny(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

/** A reply streams somewhere in the session (this tab's or another's): the turn is taken. */
export const selectStreaming = (s: SessionState): boolean => hasAny(s.live);

/** The tool calls' names: all a card shows of a node's metadata (cardText). */
function callNames(n: WireNode): string {
  return (n.metadata.tool_calls ?? []).map((c) => c.name).join("\u0000");
}

/** Two sealed copies of one node whose graph card and place are the same. */
function sameCard(a: WireNode, b: WireNode): boolean {
  return (
    a.status === b.status &&
    a.status !== "streaming" &&
    a.kind === b.kind &&
    a.predecessorId === b.predecessorId &&
    a.tokenCount === b.tokenCount &&
    firstLine(a.content) === firstLine(b.content) &&
    callNames(a) === callNames(b)
  );
}

/** Two session records that show the same: the catch-up keeps the one it holds. */
function sameRecord(a: SessionRecord, b: SessionRecord): boolean {
  return (
    a === b ||
    (a.id === b.id &&
      a.updatedAt === b.updatedAt &&
      a.headId === b.headId &&
      a.title === b.title &&
      a.rootId === b.rootId &&
      JSON.stringify(a.meta) === JSON.stringify(b.meta))
  );
}

/** Inserts `id` (of `seq`) into a seq-ordered list; appends are the common case. */
function insertBySeq(
  list: readonly NodeId[],
  id: NodeId,
  seq: number,
  seqOf: (id: NodeId) => number,
): NodeId[] {
  const out = [...list];
  let at = out.length;
  while (at > 0 && seqOf(out[at - 1] as NodeId) > seq) at--;
  out.splice(at, 0, id);
  return out;
}

interface Indexed {
  readonly nodes: Record<string, WireNode>;
  readonly children: Record<string, readonly NodeId[]>;
  readonly live: Record<string, WireNode>;
  readonly maxSeq: number;
}

function index(list: readonly WireNode[]): Indexed {
  const nodes: Record<string, WireNode> = {};
  const children: Record<string, NodeId[]> = {};
  const live: Record<string, WireNode> = {};
  let maxSeq = 0;
  for (const n of [...list].sort((a, b) => a.seq - b.seq)) {
    const had = nodes[n.id];
    const m = had ? newer(had, n) : n;
    nodes[n.id] = m;
    if (m.status === "streaming") live[n.id] = m;
    else delete live[n.id];
    if (!had && n.predecessorId) (children[n.predecessorId] ??= []).push(n.id);
    maxSeq = Math.max(maxSeq, n.seq);
  }
  return { nodes, children, live, maxSeq };
}

export function createSessionStore(init: {
  session: SessionRecord;
  nodes: readonly WireNode[];
  model: ModelInfo;
  /** Where catch-up and content on demand read from (tests pass a fake). */
  source?: NodeSource;
}) {
  const source = init.source ?? httpNodeSource(init.session.id);
  /**
   * Removed ids. Ids are never reused, so a copy of one arriving later (a fetch answered
   * before the delete) is a ghost and is dropped.
   */
  const removed = new Set<string>();
  /** Ids a `node_changed` event named: the next catch-up fetches them whole. */
  const stale = new Set<NodeId>();
  /** ensureFull: ids asked for and not landed yet, each with the request that brings it. */
  const inflight = new Map<NodeId, Promise<void>>();
  let queued: NodeId[] = [];
  let flushing: Promise<void> | null = null;
  let catching: Promise<void> | null = null;
  let again = false;
  let nonce = 0;
  /** `head_moved` events heard: a catch-up's record read before one of them is older. */
  let headMoves = 0;

  return createStore<SessionState>()((set, get, api) => {
    const fetchFull = async (ids: readonly NodeId[]): Promise<void> => {
      const batches: NodeId[][] = [];
      for (let i = 0; i < ids.length; i += MAX_IDS) batches.push(ids.slice(i, i + MAX_IDS));
      await Promise.all(
        batches.map(async (batch) => {
          try {
            get().merge(await source.byIds(batch));
          } catch {
            // Quiet: the nodes stay partial (their label shows) and a later ask retries.
          } finally {
            for (const id of batch) inflight.delete(id);
          }
        }),
      );
    };

    const runCatchUp = async (): Promise<void> => {
      const movesBefore = headMoves;
      const refetch = [...new Set([...stale, ...(Object.keys(get().live) as NodeId[])])];
      stale.clear();
      const pages: WireNode[] = [];
      let session: SessionRecord;
      let synced = get().syncedSeq;
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
        for (const id of refetch) stale.add(id);
        throw e;
      }
      const s = get();
      s.merge(pages);
      if (synced > get().syncedSeq) set({ syncedSeq: synced });
      // A delete this tab missed (the channel was down) shows as a count that differs.
      if (total !== undefined && total !== countOf(get().nodes)) await prune();
      const own = s.ownStreamId;
      // During this tab's own turn its reply is HEAD even if the record was read just before;
      // a HEAD move heard on the channel while the record was in flight is newer than it.
      const keepHead =
        (own !== null && get().nodes[own] !== undefined && s.session.headId === own) ||
        headMoves !== movesBefore;
      const next = keepHead ? { ...session, headId: get().session.headId } : session;
      // An unchanged record is not set again: no subscriber of `session` wakes for nothing.
      if (!sameRecord(get().session, next)) get().setSession(next);
    };

    /**
     * One skeleton pass over every page ([R122]): the ids the server still has. Held ids it
     * no longer has (up to the highest seq the pass saw, so a node appended meanwhile
     * stays) were deleted while this tab was not listening; they are dropped — never this
     * tab's own streaming reply.
     */
    const prune = async (): Promise<void> => {
      const alive = new Set<string>();
      const seen: WireNode[] = [];
      let top = -1;
      let after: number | null = -1;
      while (after !== null) {
        const page = await source.skeleton(after);
        for (const n of page.nodes) {
          alive.add(n.id);
          seen.push(n);
          top = Math.max(top, n.seq);
        }
        after = page.nextAfterSeq !== null && page.nextAfterSeq > after ? page.nextAfterSeq : null;
      }
      get().merge(seen);
      const s = get();
      const gone: NodeId[] = [];
      for (const key in s.nodes) {
        const n = s.nodes[key];
        if (n && n.seq <= top && !alive.has(n.id) && n.id !== s.ownStreamId) gone.push(n.id);
      }
      if (gone.length > 0) s.removeNodes(gone);
    };

    const first = index(init.nodes);
    /** The number of nodes held, without building a key array. */
    const countOf = (nodes: Readonly<Record<string, WireNode>>): number => {
      let n = 0;
      for (const key in nodes) if (Object.hasOwn(nodes, key)) n++;
      return n;
    };
    return {
      session: init.session,
      nodes: first.nodes,
      children: first.children,
      live: first.live,
      maxSeq: first.maxSeq,
      // The server rendered the page from one read of the ledger: all of it up to there.
      syncedSeq: first.maxSeq,
      channelOpen: false,
      version: 0,
      graphKey: {},
      model: init.model,
      ownStreamId: null,
      busy: null,
      error: null,
      notice: null,
      selectedId: null,
      reveal: null,
      viewRequest: null,
      expanded: {},
      showRelics: false,
      audits: {},

      setSession: (session) => set({ session }),

      merge: (incoming) => {
        if (incoming.length === 0) return;
        const s = get();
        // Copy-on-write: the big records are copied at most once per merge, and only when
        // something structural happened.
        let nodes: Record<string, WireNode> | null = null;
        let children: Record<string, readonly NodeId[]> | null = null;
        let live: Record<string, WireNode> | null = null;
        let maxSeq = s.maxSeq;
        let graphChanged = false;
        const seqOf = (id: NodeId) => (nodes ?? s.nodes)[id]?.seq ?? 0;
        for (const n of incoming) {
          if (removed.has(n.id)) continue;
          maxSeq = Math.max(maxSeq, n.seq);
          const held = (nodes ?? s.nodes)[n.id];
          const current = (live ?? s.live)[n.id] ?? held;
          const merged = current ? newer(current, n) : n;
          if (merged === current) continue;
          live ??= { ...s.live };
          if (merged.status === "streaming") live[n.id] = merged;
          else delete live[n.id];
          // Only more streamed text of the same copy is not structural.
          if (
            held &&
            merged.status === "streaming" &&
            held.status === "streaming" &&
            rank(merged) === rank(held)
          ) {
            continue;
          }
          nodes ??= { ...s.nodes };
          nodes[n.id] = merged;
          if (!held || !sameCard(held, merged)) graphChanged = true;
          if (!held && n.predecessorId) {
            children ??= { ...s.children };
            children[n.predecessorId] = insertBySeq(
              children[n.predecessorId] ?? [],
              n.id,
              n.seq,
              seqOf,
            );
          }
        }
        if (nodes === null && live === null && maxSeq === s.maxSeq) return;
        set({
          ...(nodes ? { nodes, version: s.version + 1 } : {}),
          ...(graphChanged ? { graphKey: {} } : {}),
          ...(children ? { children } : {}),
          ...(live ? { live } : {}),
          maxSeq,
        });
      },

      upsertNode: (node) => get().merge([node]),

      appendDelta: (id, text, offset) => {
        const node = get().live[id];
        // Not streaming here: a node this tab has not seen yet (catch up: its text so far
        // comes with it) or one already sealed (nothing to add).
        if (!node) return get().nodes[id] !== undefined;
        const have = node.content.length;
        if (offset > have) return false;
        if (offset + text.length <= have) return true;
        const content = node.content + text.slice(have - offset);
        set((s) => ({ live: { ...s.live, [id]: { ...node, content } } }));
        return true;
      },

      removeNodes: (ids) =>
        set((s) => {
          for (const id of ids) removed.add(id);
          const gone = ids.filter((id) => s.nodes[id] !== undefined);
          if (gone.length === 0) return s;
          const nodes = { ...s.nodes };
          const children = { ...s.children };
          const live = { ...s.live };
          for (const id of gone) {
            const pred = nodes[id]?.predecessorId;
            if (pred && children[pred]) {
              const rest = children[pred].filter((c) => c !== id);
              if (rest.length > 0) children[pred] = rest;
              else delete children[pred];
            }
            delete children[id];
            delete nodes[id];
            delete live[id];
          }
          const selectedId = s.selectedId && nodes[s.selectedId] ? s.selectedId : null;
          return { nodes, children, live, selectedId, version: s.version + 1, graphKey: {} };
        }),
      setHead: (headId) => set((s) => ({ session: { ...s.session, headId } })),
      setOwnStream: (ownStreamId) => set({ ownStreamId }),
      setChannelOpen: (channelOpen) => set({ channelOpen }),
      setBusy: (busy) => set({ busy }),
      setError: (error) => set({ error }),
      setNotice: (notice) => set({ notice }),
      setAudits: (list) =>
        set((s) => {
          const audits = { ...s.audits };
          for (const a of list) {
            const held = audits[a.summaryId];
            if (held === undefined || held.createdAt < a.createdAt) audits[a.summaryId] = a;
          }
          return { audits };
        }),
      select: (selectedId) => {
        set({ selectedId });
        // Provenance marks need what the node read; a lean or skeleton copy has none.
        if (selectedId) void get().ensureFull([selectedId]);
      },
      revealNode: (id) => set({ reveal: { id, nonce: ++nonce } }),
      requestView: (intent) => set({ viewRequest: { ...intent, nonce: ++nonce } }),
      toggleCapsule: (id) =>
        set((s) => {
          const expanded = { ...s.expanded };
          if (expanded[id]) delete expanded[id];
          else expanded[id] = true;
          return { expanded };
        }),
      toggleRelics: () => set((s) => ({ showRelics: !s.showRelics })),

      catchUp: () => {
        if (catching) {
          again = true;
          return catching;
        }
        const run = async () => {
          try {
            do {
              again = false;
              await runCatchUp();
            } while (again);
          } finally {
            catching = null;
          }
        };
        catching = run();
        return catching;
      },

      ensureFull: (ids) => {
        const s = get();
        const waits = new Set<Promise<void>>();
        for (const id of ids) {
          const pending = inflight.get(id);
          if (pending) {
            waits.add(pending);
            continue;
          }
          if (nodeOf(s, id)?.partial === undefined) continue;
          queued.push(id);
          // Calls in the same tick (rows mounting together) share one flush.
          flushing ??= Promise.resolve().then(() => {
            const batch = queued;
            queued = [];
            flushing = null;
            return fetchFull(batch);
          });
          inflight.set(id, flushing);
          waits.add(flushing);
        }
        return Promise.all(waits).then(() => undefined);
      },

      awaitSeal: async (id, ms) => {
        const sealed = (s: SessionState) => id !== null && s.live[id] === undefined;
        const seen = await new Promise<boolean>((resolve) => {
          if (id === null || sealed(get())) {
            resolve(id !== null);
            return;
          }
          const timer = setTimeout(() => {
            unsubscribe();
            resolve(false);
          }, ms);
          const unsubscribe = api.subscribe((s) => {
            if (!sealed(s)) return;
            clearTimeout(timer);
            unsubscribe();
            resolve(true);
          });
        });
        if (!seen) await get().catchUp();
      },

      apply: (event) => {
        const s = get();
        switch (event.type) {
          case "node_appended":
          case "turn_finished":
            s.upsertNode(event.node);
            // Heard live and next to the cursor: nothing before it was missed.
            if (s.channelOpen && event.node.seq === s.syncedSeq + 1) {
              set({ syncedSeq: event.node.seq });
            }
            return false;
          case "delta":
            // A gap (this tab missed text) is healed by a catch-up, which refetches every
            // node this tab holds streaming.
            return event.id !== s.ownStreamId && !s.appendDelta(event.id, event.text, event.offset);
          case "head_moved":
            headMoves++;
            s.setHead(event.headId);
            return false;
          case "nodes_removed":
            s.removeNodes(event.ids);
            return false;
          case "notice":
            s.setNotice(event.message);
            return false;
          case "compaction_failed":
            s.setNotice(`Compaction failed: ${event.message}`);
            return false;
          case "compaction_started":
            return false;
          case "compaction_finished":
            if (event.trigger !== "manual") {
              s.setNotice(
                `The oldest ${event.counts.covered} turns were summarised to stay inside the context window (${event.tokensBefore.toLocaleString("en")} → ${event.tokensAfter.toLocaleString("en")} tokens).`,
              );
            }
            return true;
          case "node_changed":
            stale.add(event.id);
            return true;
          case "session_changed":
            return true;
          case "access_revoked":
            return false;
        }
      },
    };
  });
}
