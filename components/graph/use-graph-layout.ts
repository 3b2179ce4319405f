"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { GraphView } from "@/lib/engine/build-graph";
import type { NodeId } from "@/lib/engine/ids";
import type { ProvenanceMarks } from "@/lib/engine/provenance-marks";
import type { GraphLayout } from "./flow-types";
import { layoutGraph } from "./layout";
import { LayoutClient, type WorkerLike } from "./layout-client";
import { LayoutCache } from "./tidy-tree";

/**
 * Up to this many rows the layout runs in place: a few milliseconds, and the picture is
 * there in the same frame as the data. Above it, in the worker.
 */
export const WORKER_FROM_ROWS = 400;

function spawnLayoutWorker(): WorkerLike {
  // No Worker here: the client lays out in place instead.
  if (typeof Worker === "undefined") throw new Error("no Worker");
  // This exact shape is what the bundler recognises and emits as a worker chunk. A classic
  // worker: Turbopack's worker bootstrap loads the chunks with importScripts (it drops a
  // `type: "module"` anyway).
  return new Worker(new URL("./layout.worker.ts", import.meta.url), {
    name: "graph-layout",
  }) as unknown as WorkerLike;
}

/**
 * The graph's layout for the canvas (graph.md: layout runs off the main thread or
 * incrementally). Small graphs lay out in place, in render, through the pure `layoutGraph`;
 * larger ones in a worker (or, where there is none, through the same function in an
 * effect), while the canvas keeps the previous layout until the new one arrives — null
 * before the first, which is also what the server renders for a large graph, so hydration
 * matches and the server never lays out a huge session. Both paths keep a per-subtree
 * cache, so an appended node re-lays out only its path to ROOT. Recomputed only when its
 * inputs change identity — the graph, never a token.
 */
export function useGraphLayout(
  graph: GraphView | null,
  expanded: ReadonlySet<NodeId>,
  showRelics: boolean,
  marks: ProvenanceMarks | null,
): GraphLayout | null {
  const [cache] = useState(() => new LayoutCache());
  const offload = graph !== null && graph.nodes.length > WORKER_FROM_ROWS;
  const inPlace = useMemo(
    () =>
      graph === null || offload ? null : layoutGraph(graph, { expanded, showRelics, marks }, cache),
    [graph, offload, expanded, showRelics, marks, cache],
  );

  // What the canvas shows: the in-place layout as it changes, or the worker's latest.
  const [shown, setShown] = useState<GraphLayout | null>(inPlace);
  if (inPlace !== null && inPlace !== shown) setShown(inPlace);

  const client = useRef<LayoutClient | null>(null);
  useEffect(() => {
    const created = new LayoutClient(spawnLayoutWorker);
    client.current = created;
    return () => {
      created.dispose();
      client.current = null;
    };
  }, []);
  useEffect(() => {
    if (!offload || graph === null) return;
    client.current?.request(graph, { expanded, showRelics, marks }, setShown);
  }, [offload, graph, expanded, showRelics, marks]);

  if (graph === null) return null;
  return offload ? shown : inPlace;
}
