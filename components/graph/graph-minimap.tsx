"use client";

import { useReactFlow, useStore, type ReactFlowState } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, type PointerEvent } from "react";
import type { GraphEdge, GraphNode } from "./flow-node-types";
import type { FlowNode } from "./flow-types";
import { boundsOf } from "./opening-view";
import p from "./panel.module.css";

/** The largest the map gets, and the share of the pane it may take. */
const MAX = { width: 200, height: 150, share: 0.3 } as const;
const MIN_SIDE = 40;

type Paint = "card" | "spine" | "capsule" | "read" | "head";

/** What a card is on the map: HEAD and its branch, the capsule, what the reply read. */
function paintOf(card: FlowNode, headCardId: string | null): Paint {
  if (card.id === headCardId) return "head";
  if (card.data.glow === "glow") return "read";
  if (card.type === "capsule" || card.type === "frame") return "capsule";
  if (card.type !== "side" && card.data.spine) return "spine";
  return "card";
}

/** Painted in this order: later kinds draw over earlier ones. */
const ORDER: readonly Paint[] = ["card", "capsule", "spine", "read", "head"];

const COLOUR_VARS: Readonly<Record<Paint, string>> = {
  card: "--edge",
  spine: "--accent",
  capsule: "--accent-line-strong",
  read: "--warn-strong",
  head: "--text",
};

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
  const box = useMemo(() => {
    if (bounds === null || paneW === 0) return null;
    const spanX = Math.max(1, bounds.maxX - bounds.minX);
    const spanY = Math.max(1, bounds.maxY - bounds.minY);
    const maxW = Math.max(MIN_SIDE, Math.min(MAX.width, paneW * MAX.share));
    const maxH = Math.max(MIN_SIDE, Math.min(MAX.height, paneH * MAX.share));
    const scale = Math.min(maxW / spanX, maxH / spanY);
    return {
      scale,
      width: Math.max(MIN_SIDE, Math.ceil(spanX * scale)),
      height: Math.max(MIN_SIDE, Math.ceil(spanY * scale)),
      minX: bounds.minX,
      minY: bounds.minY,
    };
  }, [bounds, paneW, paneH]);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (el === null || ctx === null || ctx === undefined || box === null) return;
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.round(box.width * dpr);
    el.height = Math.round(box.height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, box.width, box.height);
    const style = getComputedStyle(el);
    const groups = new Map<Paint, FlowNode[]>(ORDER.map((k) => [k, []]));
    for (const card of cards.values()) groups.get(paintOf(card, headCardId))?.push(card);
    for (const paint of ORDER) {
      ctx.fillStyle = style.getPropertyValue(COLOUR_VARS[paint]).trim() || "#888";
      // HEAD is drawn bigger than life so it is found at any scale.
      const grow = paint === "head" ? 3 : paint === "read" ? 1 : 0;
      for (const card of groups.get(paint) ?? []) {
        if (card.type === "frame") continue;
        const x = (card.position.x - box.minX) * box.scale - grow;
        const y = (card.position.y - box.minY) * box.scale - grow;
        const w = Math.max(1.5, card.width * box.scale) + 2 * grow;
        const h = Math.max(1.5, card.height * box.scale) + 2 * grow;
        ctx.fillRect(x, y, w, h);
      }
    }
  }, [cards, headCardId, box, theme]);

  const panTo = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      if (box === null) return;
      const rect = event.currentTarget.getBoundingClientRect();
      const x = box.minX + (event.clientX - rect.left) / box.scale;
      const y = box.minY + (event.clientY - rect.top) / box.scale;
      onPan();
      void flow.setCenter(x, y, { zoom: flow.getZoom() });
    },
    [box, flow, onPan],
  );

  if (box === null) return null;
  // The view's rectangle, on the map, clipped to it.
  const left = Math.max(0, (-tx / zoom - box.minX) * box.scale);
  const top = Math.max(0, (-ty / zoom - box.minY) * box.scale);
  const right = Math.min(box.width, ((paneW - tx) / zoom - box.minX) * box.scale);
  const bottom = Math.min(box.height, ((paneH - ty) / zoom - box.minY) * box.scale);
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
      {right > left && bottom > top && (
        <div
          className={p.minimapView}
          style={{ left, top, width: right - left, height: bottom - top }}
          aria-hidden
        />
      )}
    </div>
  );
}
