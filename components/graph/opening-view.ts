/** A React Flow viewport: the flow point (0, 0) drawn at (x, y), scaled by zoom. */
export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

interface Box {
  readonly position: { readonly x: number; readonly y: number };
  readonly width: number;
  readonly height: number;
}

/** Padding of a fit, in screen pixels: the top keeps the first card clear of the toolbar. */
export const FIT_PADDING = { top: 64, x: 24, bottom: 24 } as const;
/** Below this a fit shows shapes, not words: a long session opens on HEAD instead. */
export const LEGIBLE_ZOOM = 0.35;
/** The zoom a long session opens at, centred on HEAD. */
export const READING_ZOOM = 0.8;
export const MIN_ZOOM = 0.05;
export const FIT_MAX_ZOOM = 1;

const centre = (card: Box) => ({
  x: card.position.x + card.width / 2,
  y: card.position.y + card.height / 2,
});

/** The viewport that shows every card, padded, at no more than natural size. */
export function fitViewport(cards: readonly Box[], pane: { width: number; height: number }) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const card of cards) {
    minX = Math.min(minX, card.position.x);
    minY = Math.min(minY, card.position.y);
    maxX = Math.max(maxX, card.position.x + card.width);
    maxY = Math.max(maxY, card.position.y + card.height);
  }
  if (cards.length === 0) return { x: 0, y: 0, zoom: FIT_MAX_ZOOM };
  const roomX = Math.max(1, pane.width - 2 * FIT_PADDING.x);
  const roomY = Math.max(1, pane.height - FIT_PADDING.top - FIT_PADDING.bottom);
  const spanX = Math.max(1, maxX - minX);
  const spanY = Math.max(1, maxY - minY);
  const zoom = Math.max(MIN_ZOOM, Math.min(FIT_MAX_ZOOM, roomX / spanX, roomY / spanY));
  return {
    x: FIT_PADDING.x + (roomX - spanX * zoom) / 2 - minX * zoom,
    y: FIT_PADDING.top + (roomY - spanY * zoom) / 2 - minY * zoom,
    zoom,
  };
}

/**
 * Where the graph opens (graph.md: large sessions stay fluid): the whole graph when it fits
 * legibly, else HEAD's card at reading size. Computed from the layout alone and applied in
 * one step, so the canvas never passes through a whole-graph zoom at which React Flow would
 * mount every card of a long session.
 */
export function openingViewport(
  cards: readonly Box[],
  pane: { width: number; height: number },
  head: Box | null,
): Viewport {
  const fit = fitViewport(cards, pane);
  if (fit.zoom >= LEGIBLE_ZOOM || head === null) return fit;
  const at = centre(head);
  return {
    x: pane.width / 2 - at.x * READING_ZOOM,
    y: pane.height / 2 - at.y * READING_ZOOM,
    zoom: READING_ZOOM,
  };
}
