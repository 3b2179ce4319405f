import type { FlowNode } from "./flow-types";

/** What a card is on the map: a card, a capsule, HEAD's branch, what the reply read, HEAD. */
export type Paint = "card" | "spine" | "capsule" | "read" | "head";

/** Painted in this order: a later kind wins a pixel an earlier one also covers. */
export const ORDER: readonly Paint[] = ["card", "capsule", "spine", "read", "head"];

export function paintOf(card: FlowNode, headCardId: string | null): Paint {
  if (card.id === headCardId) return "head";
  if (card.data.glow === "glow") return "read";
  if (card.type === "capsule" || card.type === "frame") return "capsule";
  if (card.type !== "side" && card.data.spine) return "spine";
  return "card";
}

/**
 * Where the map's pixels sit in the layout: CSS pixels per layout unit across and down, and
 * the layout's corner at the map's.
 */
export interface MapBox {
  readonly scaleX: number;
  readonly scaleY: number;
  readonly minX: number;
  readonly minY: number;
}

/** The map's box, in CSS pixels, and where the layout sits in it. */
export interface MapFrame extends MapBox {
  readonly width: number;
  readonly height: number;
}

/** The largest the map gets, and the share of the pane it may take. */
export const MAP_MAX = { width: 200, height: 150, share: 0.3 } as const;
const MIN_SIDE = 40;
/**
 * The least share of its largest size the map takes across and down. A graph far wider than
 * tall (a session with many retries: 100,000 nodes drew 2 px tall) or far taller than wide (a
 * long chat without forks) is stretched to this, so the map is never a strip too thin to read
 * or to aim at; the view's rectangle is stretched with it.
 */
const LEAST_SHARE = 0.4;

/** The map's box for a layout of `bounds` in a pane: the layout's aspect unless too thin. */
export function mapFrame(
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  pane: { width: number; height: number },
): MapFrame {
  const spanX = Math.max(1, bounds.maxX - bounds.minX);
  const spanY = Math.max(1, bounds.maxY - bounds.minY);
  const maxW = Math.max(MIN_SIDE, Math.min(MAP_MAX.width, pane.width * MAP_MAX.share));
  const maxH = Math.max(MIN_SIDE, Math.min(MAP_MAX.height, pane.height * MAP_MAX.share));
  const scale = Math.min(maxW / spanX, maxH / spanY);
  const width = Math.max(MIN_SIDE, Math.ceil(Math.max(spanX * scale, maxW * LEAST_SHARE)));
  const height = Math.max(MIN_SIDE, Math.ceil(Math.max(spanY * scale, maxH * LEAST_SHARE)));
  return {
    width,
    height,
    scaleX: width / spanX,
    scaleY: height / spanY,
    minX: bounds.minX,
    minY: bounds.minY,
  };
}

/**
 * The map's pixels as paints: for each device pixel of a `width` × `height` canvas, 0 for
 * none, else 1 + the index in {@link ORDER} of the paint that covers it last. Each card
 * marks the pixels it covers (at least 1.5 CSS px a side; HEAD 3 px bigger all round, a read
 * 1 px, so they are found at any scale); frames are left out (their capsule is drawn).
 *
 * One pass over the cards, no canvas call per card: a large session's map has far more cards
 * than pixels, and a rectangle per card cost ~100 ms at 100,000 cards on every structural
 * change (measured in Chromium, docs/benchmarks.md).
 */
export function paintRanks(
  width: number,
  height: number,
  box: MapBox,
  dpr: number,
  cards: Iterable<FlowNode>,
  headCardId: string | null,
): Uint8Array {
  const ranks = new Uint8Array(width * height);
  const scaleX = box.scaleX * dpr;
  const scaleY = box.scaleY * dpr;
  for (const card of cards) {
    if (card.type === "frame") continue;
    const paint = paintOf(card, headCardId);
    const grow = (paint === "head" ? 3 : paint === "read" ? 1 : 0) * dpr;
    const x = (card.position.x - box.minX) * scaleX - grow;
    const y = (card.position.y - box.minY) * scaleY - grow;
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(width, Math.ceil(x + Math.max(1.5 * dpr, card.width * scaleX) + 2 * grow));
    const y1 = Math.min(
      height,
      Math.ceil(y + Math.max(1.5 * dpr, card.height * scaleY) + 2 * grow),
    );
    const rank = ORDER.indexOf(paint) + 1;
    for (let row = y0; row < y1; row++) {
      for (let i = row * width + x0, end = row * width + x1; i < end; i++) {
        if ((ranks[i] ?? 0) < rank) ranks[i] = rank;
      }
    }
  }
  return ranks;
}

/** The pixels of {@link paintRanks} in colour: RGBA for the canvas, `colours` in ORDER. */
export function rgbaPixels(
  ranks: Uint8Array,
  colours: readonly (readonly [number, number, number, number])[],
): Uint8ClampedArray<ArrayBuffer> {
  const px = new Uint8ClampedArray(ranks.length * 4);
  for (let i = 0; i < ranks.length; i++) {
    const colour = colours[(ranks[i] ?? 0) - 1];
    if (colour === undefined) continue;
    px.set(colour, i * 4);
  }
  return px;
}

/** The layout point under a point of the map, in CSS pixels from its top-left corner. */
export function flowPointAt(frame: MapBox, x: number, y: number): { x: number; y: number } {
  return { x: frame.minX + x / frame.scaleX, y: frame.minY + y / frame.scaleY };
}

/**
 * The view's rectangle on the map, clipped to it, for a React Flow viewport (`tx`, `ty`,
 * `zoom`) over a pane of `paneW` × `paneH`; null when the view lies off the map.
 */
export function viewOnMap(
  frame: MapFrame,
  [tx, ty, zoom]: readonly [number, number, number],
  paneW: number,
  paneH: number,
): { left: number; top: number; width: number; height: number } | null {
  const left = Math.max(0, (-tx / zoom - frame.minX) * frame.scaleX);
  const top = Math.max(0, (-ty / zoom - frame.minY) * frame.scaleY);
  const right = Math.min(frame.width, ((paneW - tx) / zoom - frame.minX) * frame.scaleX);
  const bottom = Math.min(frame.height, ((paneH - ty) / zoom - frame.minY) * frame.scaleY);
  return right > left && bottom > top
    ? { left, top, width: right - left, height: bottom - top }
    : null;
}
