"use client";

import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { graphOf, useSession } from "@/components/session/session-context";
import type { SessionState } from "@/components/session/session-store";
import { modelOf, type GraphModel } from "./graph-model";
import { GraphModelClient, type WorkerLike } from "./layout-client";
import { LayoutCache } from "./tidy-tree";

/**
 * Up to this many nodes the graph is built and laid out in place: a few milliseconds, and
 * the picture is there in the same frame as the data. Above it, in the worker.
 */
export const WORKER_FROM_NODES = 400;

function spawnLayoutWorker(): WorkerLike {
  // No Worker here: the client builds in place instead.
  if (typeof Worker === "undefined") throw new Error("no Worker");
  // This exact shape is what the bundler recognises and emits as a worker chunk. A classic
  // worker: Turbopack's worker bootstrap loads the chunks with importScripts (it drops a
  // `type: "module"` anyway).
  return new Worker(new URL("./layout.worker.ts", import.meta.url), {
    name: "graph-layout",
  }) as unknown as WorkerLike;
}

const selectBig = (s: SessionState) => s.nodes.size > WORKER_FROM_NODES;
const selectNodes = (s: SessionState) => s.nodes;
const selectGraphKey = (s: SessionState) => s.graphKey;
const selectSession = (s: SessionState) => s.session;

/**
 * The graph model for the canvas (graph.md: layout runs off the main thread or
 * incrementally). A small session's graph is built and laid out in place, in render; a
 * larger one in a worker that holds the ledger and answers each change with what changed
 * ([R138]) — the page never builds a large graph itself. Until the worker's first answer
 * the model is null, which is also what the server renders for a large graph, so hydration
 * matches. Recomputed only on a structural change or an option, never on a token. `big`
 * says which: a large graph's canvas is given only the cards around the view.
 */
export function useGraphModel(
  expanded: ReadonlySet<NodeId>,
  showRelics: boolean,
  reads: readonly NodeId[] | null,
): { readonly model: GraphModel | null; readonly big: boolean } {
  const big = useSession(selectBig);
  // Deferred: a structural change (a new turn, a seal) commits the transcript first.
  const graphKey = useDeferredValue(useSession(selectGraphKey));
  const nodes = useDeferredValue(useSession(selectNodes));
  const session = useDeferredValue(useSession(selectSession));
  const [cache] = useState(() => new LayoutCache());
  // The graph is memoised on the graph key: text or reads arriving on demand keep it.
  const view = useMemo(
    () => (big ? null : graphOf(graphKey, nodes, session)),
    [big, graphKey, nodes, session],
  );
  const inPlace = useMemo(
    () => (view === null ? null : modelOf(view, { expanded, showRelics, reads }, cache)),
    [view, expanded, showRelics, reads, cache],
  );

  const [fromWorker, setFromWorker] = useState<GraphModel | null>(null);
  // A session that shrank below the threshold and grew again must not show the model from
  // before: it is dropped when the graph moves in place.
  const [wasBig, setWasBig] = useState(big);
  if (wasBig !== big) {
    setWasBig(big);
    if (!big) setFromWorker(null);
  }
  const client = useRef<GraphModelClient | null>(null);
  useEffect(() => {
    const created = new GraphModelClient(spawnLayoutWorker, setFromWorker);
    client.current = created;
    return () => {
      created.dispose();
      client.current = null;
    };
  }, []);
  // Synced on a structural change or an option: text or reads arriving on demand replace
  // `nodes` but not the graph key, and change no card.
  const synced = useRef<readonly unknown[] | null>(null);
  useEffect(() => {
    if (!big) {
      synced.current = null;
      return;
    }
    const key = [graphKey, session, expanded, showRelics, reads];
    if (synced.current !== null && key.every((part, i) => part === synced.current?.[i])) return;
    synced.current = key;
    client.current?.request({ session, nodes, expanded, showRelics, reads });
  }, [big, graphKey, nodes, session, expanded, showRelics, reads]);

  return { model: big ? fromWorker : inPlace, big };
}
