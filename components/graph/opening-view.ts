/** A React Flow viewport: the flow point (0, 0) drawn at (x, y), scaled by zoom. */
export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

export interface Box {
  readonly position: { readonly x: number; readonly y: number };
  readonly width: number;
  readonly height: number;
}

/** A rectangle on screen, in pixels from the pane's top-left corner. */
export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface Pane {
  readonly width: number;
  readonly height: number;
  /**
   * What is drawn over the pane (the zoom controls, the minimap with "Back to
   * HEAD"): a card brought into view is kept clear of them, so it can be seen and clicked.
   */
  readonly covers?: readonly Rect[];
}

/**
 * Padding of a fit, in screen pixels. The toolbar is a bar above the canvas, not over it;
 * what is drawn over the canvas (the zoom controls, the minimap) is in `Pane.covers`.
 */
export const FIT_PADDING = { top: 24, x: 24, bottom: 24 } as const;
/** The size of a card's text in flow pixels (graph.module.css `.text`). */
export const CARD_TEXT_PX = 13;
/**
 * The least zoom at which a card's text reads at 12 CSS px on screen (issue 20), rounded up
 * so that it does not fall short by a rounding error: the view opens, follows HEAD, frames a
 * capsule and frames what a reply read at no less than this.
 */
export const READABLE_ZOOM = Math.ceil((12 / CARD_TEXT_PX) * 100) / 100;
/** The zoom the view opens at and follows HEAD with: cards at their natural size. */
export const READING_ZOOM = 1;
export const MIN_ZOOM = 0.05;
export const FIT_MAX_ZOOM = 1;
/** Where HEAD sits when the view shows it: a little below the middle, its branch above. */
const HEAD_AT = 0.62;

const centre = (card: Box) => ({
  x: card.position.x + card.width / 2,
  y: card.position.y + card.height / 2,
});

/** The rectangle around some boxes, in flow coordinates; null for none. */
export function boundsOf(
  boxes: Iterable<Box>,
): { minX: number; minY: number; maxX: number; maxY: number } | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const card of boxes) {
    minX = Math.min(minX, card.position.x);
    minY = Math.min(minY, card.position.y);
    maxX = Math.max(maxX, card.position.x + card.width);
    maxY = Math.max(maxY, card.position.y + card.height);
  }
  return minX === Infinity ? null : { minX, minY, maxX, maxY };
}

/** Room kept between a card and a control drawn over the pane, in screen pixels. */
export const COVER_GAP = 12;

interface Padding {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

const PLAIN: Padding = {
  top: FIT_PADDING.top,
  right: FIT_PADDING.x,
  bottom: FIT_PADDING.bottom,
  left: FIT_PADDING.x,
};

/** The viewport that centres `b` in the pane inside `pad`, at no more than `max`. */
function fitInside(
  b: { minX: number; minY: number; maxX: number; maxY: number },
  pane: Pane,
  pad: Padding,
  max: number,
): Viewport {
  const roomX = Math.max(1, pane.width - pad.left - pad.right);
  const roomY = Math.max(1, pane.height - pad.top - pad.bottom);
  const spanX = Math.max(1, b.maxX - b.minX);
  const spanY = Math.max(1, b.maxY - b.minY);
  const zoom = Math.max(MIN_ZOOM, Math.min(max, roomX / spanX, roomY / spanY));
  return {
    x: pad.left + (roomX - (b.maxX - b.minX) * zoom) / 2 - b.minX * zoom,
    y: pad.top + (roomY - (b.maxY - b.minY) * zoom) / 2 - b.minY * zoom,
    zoom,
  };
}

/**
 * Two paddings that keep a fit clear of every control drawn over the pane: each control's
 * strip taken off the top or the bottom of the pane (the half it sits in), or off its left
 * or right.
 */
function clearPaddings(pane: Pane): readonly [Padding, Padding] {
  let rows = PLAIN;
  let columns = PLAIN;
  for (const c of pane.covers ?? []) {
    rows =
      c.top + c.bottom > pane.height
        ? { ...rows, bottom: Math.max(rows.bottom, pane.height - c.top + COVER_GAP) }
        : { ...rows, top: Math.max(rows.top, c.bottom + COVER_GAP) };
    columns =
      c.left + c.right > pane.width
        ? { ...columns, right: Math.max(columns.right, pane.width - c.left + COVER_GAP) }
        : { ...columns, left: Math.max(columns.left, c.right + COVER_GAP) };
  }
  return [rows, columns];
}

/**
 * The viewport that shows every box, padded, at no more than natural size, and clear of
 * the controls drawn over the pane (the minimap, the zoom buttons): when a box would lie
 * under one, the larger of the fits that leave their strip of the pane free.
 */
export function fitViewport(cards: Iterable<Box>, pane: Pane, max = FIT_MAX_ZOOM): Viewport {
  const boxes = [...cards];
  const b = boundsOf(boxes);
  if (b === null) return { x: 0, y: 0, zoom: FIT_MAX_ZOOM };
  const plain = fitInside(b, pane, PLAIN, max);
  const covers = pane.covers ?? [];
  const covered = (view: Viewport) =>
    boxes.some((box) => {
      const rect = screenRect(box, view);
      return covers.some((cover) => overlaps(rect, cover));
    });
  if (covers.length === 0 || !covered(plain)) return plain;
  const [rowsPad, columnsPad] = clearPaddings(pane);
  const rows = fitInside(b, pane, rowsPad, max);
  const columns = fitInside(b, pane, columnsPad, max);
  return columns.zoom > rows.zoom ? columns : rows;
}

/** The viewport that puts a card's centre at a point of the pane (fractions of its size). */
export function viewportAt(card: Box, pane: Pane, zoom: number, at = { x: 0.5, y: 0.5 }) {
  const c = centre(card);
  return { x: pane.width * at.x - c.x * zoom, y: pane.height * at.y - c.y * zoom, zoom };
}

/** HEAD's card at reading size, a little below the middle so its branch shows above it. */
export function headViewport(head: Box, pane: Pane, zoom = READING_ZOOM): Viewport {
  return viewportAt(head, pane, zoom, { x: 0.5, y: HEAD_AT });
}

/** A card the opening view may frame with HEAD: the summary HEAD's branch reads. */
export interface OpeningCard extends Box {
  readonly type: string;
  readonly data: object;
}

/**
 * Where the graph opens (issue 20): never a fit that shrinks cards below reading size. The
 * whole graph when it fits at readable zoom; else HEAD's card with the capsule its branch
 * reads (the summary that stands in for its earlier turns) when both fit at readable zoom,
 * so a compacted conversation opens on what sets Spindle apart; else HEAD's card at
 * reading size with its branch above it. Computed from the layout alone and applied in one
 * step, so the canvas never passes through a whole-graph zoom at which React Flow would
 * mount every card.
 */
export function openingViewport(
  cards: Iterable<OpeningCard>,
  pane: Pane,
  head: Box | null,
): Viewport {
  const capsules: OpeningCard[] = [];
  const all: Box[] = [];
  for (const card of cards) {
    all.push(card);
    if (isBranchCapsule(card)) capsules.push(card);
  }
  const fit = fitViewport(all, pane);
  if (fit.zoom >= READABLE_ZOOM || head === null) return fit;
  const capsule = capsuleAbove(capsules, head);
  return (capsule && withCapsule(capsule, head, pane)) ?? headViewport(head, pane);
}

/** A capsule on HEAD's branch: the summary the branch reads in place of its earlier turns. */
export function isBranchCapsule(card: OpeningCard): boolean {
  return card.type === "capsule" && "spine" in card.data && card.data.spine === true;
}

/** The nearest of HEAD's branch's capsules above HEAD (a nested one stands for all it names). */
export function capsuleAbove(capsules: Iterable<Box>, head: Box): Box | null {
  let nearest: Box | null = null;
  for (const capsule of capsules) {
    if (capsule.position.y >= head.position.y) continue;
    if (nearest === null || capsule.position.y > nearest.position.y) nearest = capsule;
  }
  return nearest;
}

/**
 * HEAD and the capsule its branch reads, framed together, when both fit at readable zoom
 * with HEAD clear of the controls over the pane; else null.
 */
export function withCapsule(capsule: Box, head: Box, pane: Pane): Viewport | null {
  const both = fitViewport([capsule, head], pane, READING_ZOOM);
  return both.zoom >= READABLE_ZOOM && isClear(head, both, pane) ? both : null;
}

/** Where a box is drawn on screen under a viewport. */
export function onScreen(box: Box, view: Viewport): { x: number; y: number } {
  return { x: box.position.x * view.zoom + view.x, y: box.position.y * view.zoom + view.y };
}

/** A box's rectangle on screen under a viewport. */
export function screenRect(box: Box, view: Viewport): Rect {
  const at = onScreen(box, view);
  return {
    left: at.x,
    top: at.y,
    right: at.x + box.width * view.zoom,
    bottom: at.y + box.height * view.zoom,
  };
}

export const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Whether a box is in view, `margin` pixels clear of the pane's edges and of every cover. */
export function isClear(box: Box, view: Viewport, pane: Pane, margin = 0): boolean {
  if (!inView(box, view, pane, margin)) return false;
  const rect = screenRect(box, view);
  return !(pane.covers ?? []).some((cover) => overlaps(rect, cover));
}

/** Whether a card lies inside the viewport, `margin` screen pixels clear of its edges. */
export function inView(card: Box, view: Viewport, pane: Pane, margin = 0): boolean {
  const left = card.position.x * view.zoom + view.x;
  const top = card.position.y * view.zoom + view.y;
  return (
    left >= margin &&
    top >= margin &&
    left + card.width * view.zoom <= pane.width - margin &&
    top + card.height * view.zoom <= pane.height - margin
  );
}

/**
 * A view of what a reply read, with the reply: all of it when it fits at `READABLE_ZOOM` or
 * more (and at most natural size); otherwise `reply` at the bottom of the pane at readable
 * zoom, with as much of what it read above it as fits — the nearest reads, since a prompt's
 * messages are the reply's ancestors — and `fits` is false (the minimap shows the rest).
 * Across, the reads are centred when they fit the pane's width, else the reply is; it is
 * raised clear of the controls over the pane.
 */
export function frameViewport(
  cards: readonly Box[],
  pane: Pane,
  reply: Box,
): { readonly view: Viewport; readonly fits: boolean } {
  const fit = fitViewport(cards, pane, READING_ZOOM);
  if (fit.zoom >= READABLE_ZOOM) return { view: fit, fits: true };
  const zoom = READABLE_ZOOM;
  const b = boundsOf(cards) ?? { minX: reply.position.x, maxX: reply.position.x + reply.width };
  const wide = (b.maxX - b.minX) * zoom > pane.width - 2 * FIT_PADDING.x;
  const midX = wide ? centre(reply).x : (b.minX + b.maxX) / 2;
  const bottom = reply.position.y + reply.height;
  let view: Viewport = {
    x: pane.width / 2 - midX * zoom,
    y: pane.height - FIT_PADDING.bottom - bottom * zoom,
    zoom,
  };
  // Clear of the controls over the pane (the map, the zoom buttons): the reply goes up
  // until none of them covers it.
  for (const cover of pane.covers ?? []) {
    const rect = screenRect(reply, view);
    if (overlaps(rect, cover)) view = { ...view, y: view.y - (rect.bottom - cover.top) - 8 };
  }
  return { view, fits: false };
}
