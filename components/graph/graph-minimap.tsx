"use client";

import { useReactFlow, useStore, type ReactFlowState } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, type PointerEvent } from "react";
import type { GraphEdge, GraphNode } from "./flow-node-types";
import type { FlowNode } from "./flow-types";
import {
  flowPointAt,
  mapFrame,
  ORDER,
  paintRanks,
  rgbaPixels,
  viewOnMap,
  type Paint,
} from "./minimap-paint";
import { boundsOf } from "./opening-view";
import p from "./panel.module.css";

const COLOUR_VARS: Readonly<Record<Paint, string>> = {
  card: "--edge",
  spine: "--accent",
  capsule: "--accent-line-strong",
  read: "--warn-strong",
  head: "--text",
};

type Rgba = readonly [number, number, number, number];
/** Colours already read, by their CSS text: a theme has a handful. */
const rgbaRead = new Map<string, Rgba>();

/**
 * What a colour of the page's CSS is, as the canvas paints it: red, green, blue, alpha. Read
 * once per colour through a one-pixel canvas, then remembered.
 */
function rgbaOf(colour: string): Rgba {
  const known = rgbaRead.get(colour);
  if (known !== undefined) return known;
  const probe = document.createElement("canvas");
  probe.width = probe.height = 1;
  const ctx = probe.getContext("2d", { willReadFrequently: true });
  if (ctx === null) return [136, 136, 136, 255];
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 1, 1);
  const [r = 136, g = 136, b = 136, a = 255] = ctx.getImageData(0, 0, 1, 1).data;
  const read: Rgba = [r, g, b, a];
  rgbaRead.set(colour, read);
  return read;
}

const selectTransform = (s: ReactFlowState) => s.transform;
const selectPane = (s: ReactFlowState) => `${s.width}x${s.height}`;

/**
 * The graph's overview (issue 20): every card of the layout, HEAD's branch, the capsules and
 * what the selected reply read marked, with the view's rectangle; dragging in it pans.
 *
 * Drawn from the layout on a canvas rather than with React Flow's `MiniMap`, which draws
 * only the nodes handed to React Flow — for a large session, just the cards around the
 * view ([R138]) — and one SVG element each. Repainted on a structural change, never per
 * frame; only the view's rectangle follows the viewport.
 */
export function GraphMinimap({
  cards,
  headCardId,
  theme,
  onPan,
}: {
  readonly cards: ReadonlyMap<string, FlowNode>;
  readonly headCardId: string | null;
  /** Repaints when the theme changes (the colours are CSS variables). */
  readonly theme: string | null;
  /** The user panned with the map. */
  readonly onPan: () => void;
}) {
  const flow = useReactFlow<GraphNode, GraphEdge>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tx, ty, zoom] = useStore(selectTransform);
  const [paneW, paneH] = useStore(selectPane).split("x").map(Number) as [number, number];

  const bounds = useMemo(() => boundsOf(cards.values()), [cards]);
  const box = useMemo(
    () =>
      bounds === null || paneW === 0 ? null : mapFrame(bounds, { width: paneW, height: paneH }),
    [bounds, paneW, paneH],
  );

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (el === null || ctx === null || ctx === undefined || box === null) return;
    // Painted on the next frame: on a theme switch this effect runs before next-themes' own
    // (a parent's) sets the new theme on <html>, so the colours read now would be the old.
    const frame = requestAnimationFrame(() => {
      const dpr = window.devicePixelRatio || 1;
      el.width = Math.round(box.width * dpr);
      el.height = Math.round(box.height * dpr);
      const style = getComputedStyle(el);
      const colours = ORDER.map((paint) =>
        rgbaOf(style.getPropertyValue(COLOUR_VARS[paint]).trim() || "#888"),
      );
      const ranks = paintRanks(el.width, el.height, box, dpr, cards.values(), headCardId);
      ctx.putImageData(new ImageData(rgbaPixels(ranks, colours), el.width, el.height), 0, 0);
    });
    return () => cancelAnimationFrame(frame);
  }, [cards, headCardId, box, theme]);

  const panTo = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      if (box === null) return;
      const rect = event.currentTarget.getBoundingClientRect();
      const { x, y } = flowPointAt(box, event.clientX - rect.left, event.clientY - rect.top);
      onPan();
      void flow.setCenter(x, y, { zoom: flow.getZoom() });
    },
    [box, flow, onPan],
  );

  if (box === null) return null;
  const view = viewOnMap(box, [tx, ty, zoom], paneW, paneH);
  return (
    <div
      className={p.minimap}
      style={{ width: box.width, height: box.height }}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        panTo(event);
      }}
      onPointerMove={(event) => {
        if (event.currentTarget.hasPointerCapture(event.pointerId)) panTo(event);
      }}
    >
      <canvas
        ref={canvas}
        className={p.minimapCanvas}
        style={{ width: box.width, height: box.height }}
        role="img"
        aria-label="Overview of the graph: HEAD, its branch and the summaries; drag to move the view"
      />
      {view !== null && <div className={p.minimapView} style={view} aria-hidden />}
    </div>
  );
}
