"use client";

import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { graphOf, useSession, useSessionStoreApi } from "@/components/session/session-context";
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

// A near-first page is a big session's ([R294]): in the worker from the first answer, so the
// fill that brings the rest does not move the graph out of place.
const selectBig = (s: SessionState) => !s.complete || s.nodes.size > WORKER_FROM_NODES;
const selectNodes = (s: SessionState) => s.nodes;
const selectGraphKey = (s: SessionState) => s.graphKey;
const selectSession = (s: SessionState) => s.session;
const selectLeftOut = (s: SessionState) => s.leftOut;

/**
 * The graph model for the canvas (graph.md: layout runs off the main thread or
 * incrementally). A small session's graph is built and laid out in place, in render; a
 * larger one in a worker that holds the ledger and answers each change with what changed
 * ([R138]) — the page never builds a large graph itself. Until the worker's first answer
 * the model is null, which is also what the server renders for a large graph, so hydration
 * matches. Recomputed only on a structural change or an option, never on a token. `big`
 * says which: a large graph's canvas is given only the cards around the view. `pending`:
 * the worker has not yet answered the newest change (the model shown is the one before).
 */
export function useGraphModel(
  expanded: ReadonlySet<NodeId>,
  showRelics: boolean,
  reads: readonly NodeId[] | null,
): { readonly model: GraphModel | null; readonly big: boolean; readonly pending: boolean } {
  const big = useSession(selectBig);
  // Deferred: a structural change (a new turn, a seal) commits the transcript first.
  const graphKeyNow = useSession(selectGraphKey);
  const sessionNow = useSession(selectSession);
  const graphKey = useDeferredValue(graphKeyNow);
  const nodes = useDeferredValue(useSession(selectNodes));
  const session = useDeferredValue(sessionNow);
  // Changes only with the graph key (the fill that lands the rest drops it).
  const leftOut = useDeferredValue(useSession(selectLeftOut));
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
  // The key of the newest request the worker has answered whole: until it is the store's
  // key, the graph shows an older model (read from the store itself, not the deferred
  // values, so no render shows the graph settled between a change and its request).
  const [idleKey, setIdleKey] = useState<readonly unknown[] | null>(null);
  const synced = useRef<readonly unknown[] | null>(null);
  useEffect(() => {
    const created = new GraphModelClient(spawnLayoutWorker, setFromWorker);
    created.onIdle = () => setIdleKey(synced.current);
    client.current = created;
    return () => {
      created.dispose();
      client.current = null;
    };
  }, []);
  // Synced on a structural change or an option: text or reads arriving on demand replace
  // `nodes` but not the graph key, and change no card.
  useEffect(() => {
    if (!big) {
      synced.current = null;
      return;
    }
    const key = [graphKey, session, expanded, showRelics, reads];
    if (synced.current !== null && key.every((part, i) => part === synced.current?.[i])) return;
    synced.current = key;
    client.current?.request({ session, leftOut, nodes, expanded, showRelics, reads });
  }, [big, graphKey, nodes, session, leftOut, expanded, showRelics, reads]);

  const model = big ? fromWorker : inPlace;
  // The graph shows: a near-first page brings the rest of the ledger now, after this
  // frame, never ahead of the part the view opens on ([R294]).
  const store = useSessionStoreApi();
  const shown = model !== null;
  useEffect(() => {
    if (!shown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => void store.getState().whenComplete());
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, store]);

  const now = [graphKeyNow, sessionNow, expanded, showRelics, reads];
  const pending = big && (idleKey === null || now.some((part, i) => part !== idleKey[i]));
  return { model, big, pending };
}
