"use client";

import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { useStore } from "zustand";
import { buildGraph, type GraphView } from "@/lib/engine/build-graph";
import { activeSummaries } from "@/lib/engine/active-summaries";
import { innerSummariesOf } from "@/lib/engine/summary-turns";
import { contextTokens } from "@/lib/engine/context-tokens";
import type { NodeId } from "@/lib/engine/ids";
import { renderContext, type RenderedContext } from "@/lib/engine/render-context";
import { spineOf } from "@/lib/engine/spine-of";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import {
  createSessionStore,
  nodeOf,
  selectStreaming,
  type LedgerRest,
  type ModelInfo,
  type SessionState,
  type SessionStoreApi,
} from "./session-store";
import type { NodeSource } from "./node-source";
import type { WireNode } from "@/lib/engine/wire-node";

export { selectStreaming };
/** Re-exported where the branch rules were first read from (./versions.ts holds it). */
export { childrenLookup } from "./versions";

const StoreContext = createContext<SessionStoreApi | null>(null);

/** One store per page (zustand's Next.js guidance: no global stores). */
export function SessionStoreProvider(props: {
  session: SessionRecord;
  nodes: readonly WireNode[];
  /** The rest of a big session the page was rendered without ([R294]); null: it holds all. */
  rest?: LedgerRest | null;
  model: ModelInfo;
  source?: NodeSource;
  children: ReactNode;
}) {
  const [store] = useState(() =>
    createSessionStore({
      session: props.session,
      nodes: props.nodes,
      rest: props.rest ?? null,
      model: props.model,
      ...(props.source ? { source: props.source } : {}),
    }),
  );
  return <StoreContext.Provider value={store}>{props.children}</StoreContext.Provider>;
}

export function useSessionStoreApi(): SessionStoreApi {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useSession outside SessionStoreProvider");
  return store;
}

export function useSession<T>(selector: (s: SessionState) => T): T {
  return useStore(useSessionStoreApi(), selector);
}

// Module-level selectors: stable identities, so components re-render only on real change.
//
// The whole-ledger ones are memoised per store state on `nodes` (replaced only on a
// structural change, never per token) and `session`: however many components read the
// graph, it is built once per change for the whole page ([R120]). WeakMaps, so a replaced
// ledger's results are collected with it.

const listMemo = new WeakMap<object, readonly WireNode[]>();

function listOf(nodes: SessionState["nodes"]): readonly WireNode[] {
  let list = listMemo.get(nodes);
  if (!list) {
    list = nodes.values().sort((a, b) => a.seq - b.seq);
    listMemo.set(nodes, list);
  }
  return list;
}

/** The ledger in seq order (as structurally held: a streaming node's text may lag). */
export function selectNodeList(s: SessionState): readonly WireNode[] {
  return listOf(s.nodes);
}

const graphMemo = new WeakMap<object, { session: SessionRecord; graph: GraphView | null }>();

/**
 * Keyed on `graphKey`, not `nodes`: content arriving on demand (a skeleton's whole text, a
 * lean copy's reads) replaces `nodes` but not the graph, whose cards show the same.
 */
export function graphOf(
  graphKey: object,
  nodes: SessionState["nodes"],
  session: SessionRecord,
  leftOut: SessionState["leftOut"] = null,
): GraphView | null {
  const hit = graphMemo.get(graphKey);
  if (hit && hit.session === session) return hit.graph;
  let graph: GraphView | null;
  try {
    graph = buildGraph(session, listOf(nodes), undefined, leftOut);
  } catch {
    // A ledger mid-update (a node whose predecessor has not arrived yet) renders next time.
    graph = null;
  }
  graphMemo.set(graphKey, { session, graph });
  return graph;
}

/** The graph wire contract, computed in the browser by the same engine function. */
export function selectGraph(s: SessionState): GraphView | null {
  return graphOf(s.graphKey, s.nodes, s.session, s.leftOut);
}

export interface HeadView {
  /** HEAD's spine, ROOT first: what the transcript shows. */
  readonly spine: readonly LedgerNode[];
  /** What the model reads from HEAD (compaction.md §3). */
  readonly rendering: RenderedContext | null;
  readonly tokens: number;
}

const EMPTY_HEAD: HeadView = { spine: [], rendering: null, tokens: 0 };
const headMemo = new WeakMap<object, { session: SessionRecord; view: HeadView }>();

/**
 * The transcript follows HEAD. Structural like the graph: a streaming reply's tokens count
 * once it seals (its row shows the live text meanwhile).
 */
export function selectHeadView(s: SessionState): HeadView {
  const hit = headMemo.get(s.nodes);
  if (hit && hit.session === s.session) return hit.view;
  const { nodes, session } = s;
  const get = (id: string) => nodes.get(id);
  let view = EMPTY_HEAD;
  if (session.headId) {
    try {
      const spine = spineOf(session.headId, get);
      const active = activeSummaries(session.meta, get);
      const rendering = renderContext({
        spine,
        activeSummaries: active,
        innerSummaries: innerSummariesOf(active, get),
      });
      view = { spine, rendering, tokens: contextTokens(rendering.messages) };
    } catch {
      view = EMPTY_HEAD;
    }
  }
  headMemo.set(nodes, { session, view });
  return view;
}

export function useHeadView(): HeadView {
  return useSession(selectHeadView);
}

/** One node as it is now (a streaming node's live text): re-renders only when it changes. */
export function useNode(id: NodeId): WireNode | undefined {
  return useSession(useCallback((s: SessionState) => nodeOf(s, id), [id]));
}
