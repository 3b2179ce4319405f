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

/** Where the map's pixels sit in the layout: layout units per CSS pixel, and its corner. */
export interface MapBox {
  readonly scale: number;
  readonly minX: number;
  readonly minY: number;
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
  const scale = box.scale * dpr;
  for (const card of cards) {
    if (card.type === "frame") continue;
    const paint = paintOf(card, headCardId);
    const grow = (paint === "head" ? 3 : paint === "read" ? 1 : 0) * dpr;
    const x = (card.position.x - box.minX) * scale - grow;
    const y = (card.position.y - box.minY) * scale - grow;
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(width, Math.ceil(x + Math.max(1.5 * dpr, card.width * scale) + 2 * grow));
    const y1 = Math.min(height, Math.ceil(y + Math.max(1.5 * dpr, card.height * scale) + 2 * grow));
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
