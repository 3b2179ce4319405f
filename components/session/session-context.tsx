"use client";

import {
  createContext,
  useContext,
  useDeferredValue,
  useMemo,
  useState,
  type ReactNode,
} from "react";
import { useStore } from "zustand";
import { buildGraph, type GraphView } from "@/lib/engine/build-graph";
import { activeSummaries } from "@/lib/engine/active-summaries";
import { contextTokens } from "@/lib/engine/context-tokens";
import { renderContext, type RenderedContext } from "@/lib/engine/render-context";
import { spineOf } from "@/lib/engine/spine-of";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import {
  createSessionStore,
  type ModelInfo,
  type SessionState,
  type SessionStoreApi,
} from "./session-store";

const StoreContext = createContext<SessionStoreApi | null>(null);

/** One store per page (zustand's Next.js guidance: no global stores). */
export function SessionStoreProvider(props: {
  session: SessionRecord;
  nodes: readonly LedgerNode[];
  model: ModelInfo;
  children: ReactNode;
}) {
  const [store] = useState(() =>
    createSessionStore({ session: props.session, nodes: props.nodes, model: props.model }),
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

/** A reply streams somewhere in the session (this tab's or another's): the turn is taken. */
export const selectStreaming = (s: SessionState) =>
  Object.values(s.nodes).some((n) => n.status === "streaming");
const selectNodes = (s: SessionState) => s.nodes;
const selectSession = (s: SessionState) => s.session;

/** The ledger in seq order. */
export function useNodeList(): readonly LedgerNode[] {
  const nodes = useSession(selectNodes);
  return useMemo(() => Object.values(nodes).sort((a, b) => a.seq - b.seq), [nodes]);
}

/** The graph wire contract, computed in the browser by the same engine function. */
export function useGraph(): GraphView | null {
  // Deferred: a streaming reply changes `nodes` on every token; the graph (a whole-ledger
  // build and layout) catches up when React has time, the transcript never waits for it.
  const list = useDeferredValue(useNodeList());
  const session = useDeferredValue(useSession(selectSession));
  return useMemo(() => {
    try {
      return buildGraph(session, list);
    } catch {
      // A ledger mid-update (a node whose predecessor has not arrived yet) renders next time.
      return null;
    }
  }, [session, list]);
}

export interface HeadView {
  /** HEAD's spine, ROOT first: what the transcript shows. */
  readonly spine: readonly LedgerNode[];
  /** What the model reads from HEAD (compaction.md §3). */
  readonly rendering: RenderedContext | null;
  readonly tokens: number;
}

/** The transcript follows HEAD. */
export function useHeadView(): HeadView {
  const nodes = useSession(selectNodes);
  const session = useSession(selectSession);
  return useMemo(() => {
    const get = (id: string) => nodes[id];
    if (!session.headId) return { spine: [], rendering: null, tokens: 0 };
    try {
      const spine = spineOf(session.headId, get);
      const rendering = renderContext({
        spine,
        activeSummaries: activeSummaries(session.meta, get),
      });
      return { spine, rendering, tokens: contextTokens(rendering.messages) };
    } catch {
      return { spine: [], rendering: null, tokens: 0 };
    }
  }, [nodes, session]);
}
