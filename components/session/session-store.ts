"use client";

import { createStore } from "zustand/vanilla";
import type { NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { leftOutOf, type LeftOutWire, type VersionsLeftOut } from "@/lib/engine/versions-left-out";
import type { SessionEvent } from "@/lib/events/session-event";
import type { WireNode } from "@/lib/engine/wire-node";
import { httpNodeSource, type NodeSource } from "./node-source";
import {
  appendDelta,
  hasAny,
  indexLedger,
  mergeCopies,
  nodeOf as ledgerNodeOf,
  rebase,
  removeFromLedger,
  type Ledger,
} from "./ledger-merge";
import { LedgerSync } from "./ledger-sync";

export { newer } from "./ledger-merge";

/**
 * What a big session's page was rendered without ([R294]): it holds the part it opens on,
 * and the rest of `total` nodes, all up to seq `lastSeq`, comes with the ledger's fill.
 */
export interface LedgerRest {
  readonly total: number;
  readonly lastSeq: number;
  /** The versions of spine messages the page was rendered without, counted ({@link LeftOut}). */
  readonly leftOut?: LeftOutWire;
}

/** An action of the user's waiting for a near-first page's fill ([R294]). */
export interface WaitingForRest {
  /** What it does, in the user's words ("Switching to the other version"). */
  readonly label: string;
  /** HEAD when it was asked: it is dropped if HEAD moves before the rest arrives. */
  readonly head: NodeId | null;
}

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
 * read it, neither keeps a copy. A thin store: the ledger's rules are ledger-merge.ts, the
 * network's are ledger-sync.ts; this holds their result and the page's UI state.
 *
 * Why two slices of nodes ([R120]): a session holds thousands of nodes and a reply streams
 * hundreds of tokens. Everything whole-ledger (the graph build, the children index, the
 * sorted list, HEAD's rendering) is keyed on `nodes`, which changes only on a structural
 * change — a node appears, seals, is removed, or a fuller copy arrives — and then shares all
 * but the changed entries with the map before ([R289]). A token changes only `live`, a
 * record of the few streaming nodes' latest copies: copying it is O(number of streams), and
 * only the components that read one streaming node (its message row) re-render. A streaming
 * node's entry in `nodes` keeps the text it had when it last changed structurally; readers
 * that show text ask `nodeOf` (live first).
 */
export interface SessionState extends Ledger {
  readonly session: SessionRecord;
  /**
   * The synced cursor, where a catch-up starts ([R122]): every node with a seq up to it has
   * reached this tab. It advances only on catch-up pages and on channel events received
   * while the channel is open that are contiguous with it — never on this tab's own turn
   * stream, which may run ahead of seqs another writer committed while the channel was down.
   */
  readonly syncedSeq: number;
  /**
   * The tab holds the whole ledger. False from a big session's near-first page until the
   * fill brought the rest ([R294]); what reads beyond HEAD's spine (a version, its
   * branch tip, a prune) waits for it — `whenComplete`.
   */
  readonly complete: boolean;
  /**
   * Until the fill lands, the versions of HEAD's spine messages the near-first page was
   * rendered without, counted by the version rules as if held (`‹ 70/140 ›`, [R294]); null
   * once the tab holds the whole ledger.
   */
  readonly leftOut: VersionsLeftOut | null;
  /** The fill's last attempt failed and it is trying again ([R294]). */
  readonly fillTrouble: boolean;
  /** What the user asked for that waits for the fill ({@link withWholeLedger}). */
  readonly waitingForRest: WaitingForRest | null;
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
  /** {@link LedgerSync.catchUp} */
  catchUp(): Promise<void>;
  /** {@link LedgerSync.fill}: starts the fill if it has not started; resolves when complete. */
  whenComplete(): Promise<void>;
  /** {@link LedgerSync.ensureFull} */
  ensureFull(ids: readonly NodeId[]): Promise<void>;
  /** {@link LedgerSync.awaitSeal} */
  awaitSeal(id: NodeId | null, ms: number): Promise<void>;
  /** Applies a session-channel event; returns true when the page should catch up. */
  apply(event: SessionEvent): boolean;
}

export type SessionStoreApi = ReturnType<typeof createSessionStore>;

/** The current copy of a node: a streaming node's live text first. */
export function nodeOf(s: SessionState, id: string): WireNode | undefined {
  return ledgerNodeOf(s, id);
}

/**
 * Runs `act` on a ledger that holds every node — at once, or when a near-first page's fill
 * has landed ([R294]): what reads beyond HEAD's spine (a version, its branch
 * tip) must not act on a part of the ledger. While it waits, `waitingForRest` says so in
 * `label`'s words (the page shows it, with a way to cancel); a later click replaces the
 * waiting one (the last thing asked for is what happens), and it is dropped if HEAD moved
 * meanwhile: what it was asked on is no longer what is shown.
 */
export function withWholeLedger(
  store: SessionStoreApi,
  label: string,
  act: (s: SessionState) => void,
): void {
  const s = store.getState();
  if (s.complete) {
    // Whatever waited is overtaken by this newer click.
    cancelWaitingForRest(store);
    act(s);
    return;
  }
  waiting.set(store, act);
  store.setState({ waitingForRest: { label, head: s.session.headId } });
  if (listening.has(store)) return;
  // One listener per store, however many clicks and cancels: the action runs the moment
  // the ledger is whole (not when some retry loop of the fill next wakes).
  listening.add(store);
  const unsubscribe = store.subscribe((now) => {
    if (!now.complete) return;
    unsubscribe();
    listening.delete(store);
    const act = waiting.get(store);
    const asked = now.waitingForRest;
    if (!act || asked === null) return;
    cancelWaitingForRest(store);
    const current = store.getState();
    if (current.session.headId === asked.head) act(current);
  });
  void s.whenComplete();
}

/** Drops the action waiting for the rest ({@link withWholeLedger}), if any. */
export function cancelWaitingForRest(store: SessionStoreApi): void {
  if (!waiting.delete(store)) return;
  store.setState({ waitingForRest: null });
}

/** The stores whose completion a waiting action listens for. */
const listening = new WeakSet<SessionStoreApi>();

/** The action each store has waiting for the rest; its state's `waitingForRest` names it. */
const waiting = new WeakMap<SessionStoreApi, (s: SessionState) => void>();

/** A reply streams somewhere in the session (this tab's or another's): the turn is taken. */
export const selectStreaming = (s: SessionState): boolean => hasAny(s.live);

/** The ledger slice of the state (what the merge rules take). */
const ledgerOf = (s: SessionState): Ledger => s;

export function createSessionStore(init: {
  session: SessionRecord;
  nodes: readonly WireNode[];
  /** What the page was rendered without; null or absent: the whole ledger. */
  rest?: LedgerRest | null;
  model: ModelInfo;
  /** Where catch-up and content on demand read from (tests pass a fake). */
  source?: NodeSource;
}) {
  let nonce = 0;

  return createStore<SessionState>()((set, get, api) => {
    const sync = new LedgerSync(init.source ?? httpNodeSource(init.session.id), {
      read: get,
      merge: (nodes) => get().merge(nodes),
      land: (base, result) => {
        const s = get();
        const ledger = rebase(result, base, ledgerOf(s));
        if (ledger.nodes === s.nodes && ledger.children === s.children) return;
        // A pass brought every node: nothing is left out any more.
        set({ ...ledger, leftOut: null, version: s.version + 1, graphKey: {} });
      },
      remove: (ids) => get().removeNodes(ids),
      setSession: (session) => get().setSession(session),
      setSyncedSeq: (syncedSeq) => set({ syncedSeq }),
      setComplete: () => {
        const s = get();
        set(
          s.leftOut === null ? { complete: true } : { complete: true, leftOut: null, graphKey: {} },
        );
      },
      setFillTrouble: (fillTrouble) => {
        if (get().fillTrouble !== fillTrouble) set({ fillTrouble });
      },
      subscribe: (listener) => api.subscribe(listener),
    });
    const first = indexLedger(init.nodes);
    const rest = init.rest ?? null;
    // HEAD moved (another tab checked out an old branch) onto a node a near-first page does
    // not hold: its branch is in the rest, which is brought now ([R294]).
    const restFor = (headId: NodeId | null) => {
      const s = get();
      if (!s.complete && headId !== null && !s.nodes.has(headId)) void sync.fill();
    };
    return {
      ...first,
      session: init.session,
      // The server rendered the page from one read of the ledger: all of it up to there —
      // or, near-first, the part it opens on, and everything else up to `rest.lastSeq`
      // comes with the fill.
      syncedSeq: Math.max(first.maxSeq, rest?.lastSeq ?? 0),
      complete: rest === null,
      leftOut: rest === null ? null : leftOutOf(rest.leftOut),
      fillTrouble: false,
      waitingForRest: null,
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

      setSession: (session) => {
        set({ session });
        restFor(session.headId);
      },

      merge: (incoming) => {
        if (incoming.length === 0) return;
        const s = get();
        const change = mergeCopies(ledgerOf(s), incoming, sync.isRemoved);
        if (change === null) return;
        set({
          ...change.ledger,
          ...(change.structural ? { version: s.version + 1 } : {}),
          ...(change.graphChanged ? { graphKey: {} } : {}),
        });
      },

      upsertNode: (node) => get().merge([node]),

      appendDelta: (id, text, offset) => {
        const s = get();
        const result = appendDelta(ledgerOf(s), id, text, offset);
        if (result.ok && result.ledger.live !== s.live) set({ live: result.ledger.live });
        return result.ok;
      },

      removeNodes: (ids) => {
        sync.forget(ids);
        const s = get();
        const ledger = removeFromLedger(ledgerOf(s), ids);
        if (ledger === null) return;
        const selectedId = s.selectedId && ledger.nodes.has(s.selectedId) ? s.selectedId : null;
        set({ ...ledger, selectedId, version: s.version + 1, graphKey: {} });
      },
      setHead: (headId) => {
        set((s) => ({ session: { ...s.session, headId } }));
        restFor(headId);
      },
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

      catchUp: () => sync.catchUp(),
      whenComplete: () => sync.fill(),
      ensureFull: (ids) => sync.ensureFull(ids),
      awaitSeal: (id, ms) => sync.awaitSeal(id, ms),

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
            sync.headMoved();
            s.setHead(event.headId);
            return false;
          case "nodes_removed":
            s.removeNodes(event.ids);
            return false;
          case "notice":
            s.setNotice(event.message);
            return false;
          case "compaction_failed":
            // A compaction asked for here (the button, `/compact`) says why it failed where
            // it was asked; an automatic one has no other voice.
            if (event.trigger !== "manual") s.setNotice(`Compaction failed: ${event.message}`);
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
            sync.markStale(event.id);
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
