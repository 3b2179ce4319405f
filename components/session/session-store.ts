"use client";

import { createStore } from "zustand/vanilla";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import type { SessionEvent } from "@/lib/events/session-event";

/** What the page knows about the model and its window (from the server; never a key). */
export interface ModelInfo {
  readonly label: string;
  readonly offline: boolean;
  readonly window: number;
  readonly keepRecentTokens: number;
  readonly notice: string | null;
}

/**
 * The single live source of one session in the browser: the transcript and the graph both
 * read it, neither keeps a copy. Everything derived (spine, rendering, graph rows, layout)
 * is computed by selectors from `nodes` and `session`, never stored.
 */
export interface SessionState {
  readonly session: SessionRecord;
  /** The ledger, by id. Replaced (not mutated) on every change so selectors memoise. */
  readonly nodes: Readonly<Record<string, LedgerNode>>;
  readonly model: ModelInfo;
  /** The reply this tab is streaming through its own POST (deltas from the bus skip it). */
  readonly ownStreamId: NodeId | null;
  /** A request of this tab is in flight (send, retry, compact…). */
  readonly busy: "turn" | "compact" | "task" | "send" | null;
  readonly error: string | null;
  readonly notice: string | null;
  readonly selectedId: NodeId | null;
  readonly expanded: Readonly<Record<string, true>>;
  readonly showRelics: boolean;

  hydrate(session: SessionRecord, nodes: readonly LedgerNode[]): void;
  setSession(session: SessionRecord): void;
  upsertNode(node: LedgerNode): void;
  /**
   * Applies streamed text that starts at `offset` of the node's content: text this copy
   * already has is skipped, so a chunk never lands twice. Returns false when the chunk
   * starts past the end of this copy (text was missed): the node must be refetched.
   */
  appendDelta(id: NodeId, text: string, offset: number): boolean;
  removeNodes(ids: readonly NodeId[]): void;
  setHead(headId: NodeId): void;
  setOwnStream(id: NodeId | null): void;
  setBusy(busy: SessionState["busy"]): void;
  setError(error: string | null): void;
  setNotice(notice: string | null): void;
  select(id: NodeId | null): void;
  toggleCapsule(id: NodeId): void;
  toggleRelics(): void;
  /** Applies a session-channel event; returns true when the page should refetch. */
  apply(event: SessionEvent): boolean;
}

export type SessionStoreApi = ReturnType<typeof createSessionStore>;

/**
 * Of two copies of one node, the later one. A node only ever moves forward — streaming with
 * more text, then sealed once — so a sealed copy beats a streaming one and, while streaming,
 * the longer text wins; events and snapshots may arrive in any order.
 */
function newer(a: LedgerNode, b: LedgerNode): LedgerNode {
  if (a.status !== "streaming") return b.status !== "streaming" ? b : a;
  if (b.status !== "streaming") return b;
  return b.content.length >= a.content.length ? b : a;
}

function byId(nodes: readonly LedgerNode[]): Record<string, LedgerNode> {
  const out: Record<string, LedgerNode> = {};
  for (const n of nodes) out[n.id] = n;
  return out;
}

export function createSessionStore(init: {
  session: SessionRecord;
  nodes: readonly LedgerNode[];
  model: ModelInfo;
}) {
  return createStore<SessionState>()((set, get) => ({
    session: init.session,
    nodes: byId(init.nodes),
    model: init.model,
    ownStreamId: null,
    busy: null,
    error: null,
    notice: null,
    selectedId: null,
    expanded: {},
    showRelics: false,

    hydrate: (session, nodes) =>
      set((s) => {
        const next = byId(nodes);
        // Merge, never regress: a snapshot can be older than events already applied.
        for (const local of Object.values(s.nodes)) {
          const fresh = next[local.id];
          if (fresh) next[local.id] = newer(local, fresh);
        }
        if (s.ownStreamId === null) return { session, nodes: next };
        // During this tab's own turn, keep nodes the snapshot has not seen yet.
        const newest = nodes.reduce((max, n) => Math.max(max, n.seq), -1);
        for (const local of Object.values(s.nodes)) {
          if (!next[local.id] && local.seq > newest) next[local.id] = local;
        }
        const keepHead = next[s.ownStreamId] !== undefined && s.session.headId === s.ownStreamId;
        return { session: keepHead ? { ...session, headId: s.ownStreamId } : session, nodes: next };
      }),
    setSession: (session) => set({ session }),
    upsertNode: (node) =>
      set((s) => {
        const existing = s.nodes[node.id];
        const merged = existing ? newer(existing, node) : node;
        return merged === existing ? s : { nodes: { ...s.nodes, [node.id]: merged } };
      }),
    appendDelta: (id, text, offset) => {
      const node = get().nodes[id];
      // A node this tab has not seen yet: refetch (its text so far comes with it).
      if (!node) return false;
      if (node.status !== "streaming") return true;
      const have = node.content.length;
      if (offset > have) return false;
      if (offset + text.length <= have) return true;
      const content = node.content + text.slice(have - offset);
      set((s) => ({ nodes: { ...s.nodes, [id]: { ...node, content } } }));
      return true;
    },
    removeNodes: (ids) =>
      set((s) => {
        const nodes = { ...s.nodes };
        for (const id of ids) delete nodes[id];
        const selectedId = s.selectedId && nodes[s.selectedId] ? s.selectedId : null;
        return { nodes, selectedId };
      }),
    setHead: (headId) => set((s) => ({ session: { ...s.session, headId } })),
    setOwnStream: (ownStreamId) => set({ ownStreamId }),
    setBusy: (busy) => set({ busy }),
    setError: (error) => set({ error }),
    setNotice: (notice) => set({ notice }),
    select: (selectedId) => set({ selectedId }),
    toggleCapsule: (id) =>
      set((s) => {
        const expanded = { ...s.expanded };
        if (expanded[id]) delete expanded[id];
        else expanded[id] = true;
        return { expanded };
      }),
    toggleRelics: () => set((s) => ({ showRelics: !s.showRelics })),

    apply: (event) => {
      const s = get();
      switch (event.type) {
        case "node_appended":
        case "turn_finished":
          s.upsertNode(event.node);
          return false;
        case "delta":
          // A gap (this tab missed text) is healed by a refetch.
          return event.id !== s.ownStreamId && !s.appendDelta(event.id, event.text, event.offset);
        case "head_moved":
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
        case "session_changed":
        case "node_changed":
          return true;
      }
    },
  }));
}
