import type { FlowEdge, FlowNode, Lines } from "./flow-types";

/** A rectangle in flow coordinates. */
export interface Rect {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/**
 * The part of the flow plane a large graph's canvas is given, as a key that changes only
 * when the view leaves it ([R138]): the plane is cut into tiles one pane in size at the
 * zoom rounded down to a half-octave, and the cover is the 3 × 3 tiles around the one where
 * the view starts. The view always lies inside its cover (it is at most one tile wide at
 * that zoom), so panning and zooming re-render the canvas only when a tile edge is crossed
 * or the zoom changes level — not on every frame. `""` before the pane is measured.
 */
export function coverKey(
  transform: readonly [number, number, number],
  width: number,
  height: number,
): string {
  const [tx, ty, zoom] = transform;
  if (width <= 0 || height <= 0 || zoom <= 0) return "";
  const level = Math.floor(Math.log2(zoom) * 2);
  const tileZoom = 2 ** (level / 2);
  const tileW = width / tileZoom;
  const tileH = height / tileZoom;
  const ix = Math.floor(-tx / zoom / tileW);
  const iy = Math.floor(-ty / zoom / tileH);
  return `${level}:${ix}:${iy}:${width}:${height}`;
}

/** The rectangle a {@link coverKey} stands for; null for `""`. */
export function coverRect(key: string): Rect | null {
  if (key === "") return null;
  const [level, ix, iy, width, height] = key.split(":").map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const tileZoom = 2 ** (level / 2);
  const tileW = width / tileZoom;
  const tileH = height / tileZoom;
  return {
    minX: (ix - 1) * tileW,
    minY: (iy - 1) * tileH,
    maxX: (ix + 2) * tileW,
    maxY: (iy + 2) * tileH,
  };
}

const overlaps = (card: FlowNode, r: Rect) =>
  card.position.x < r.maxX &&
  card.position.x + card.width > r.minX &&
  card.position.y < r.maxY &&
  card.position.y + card.height > r.minY;

/** Whether a line between two cards outside `rect` may pass through it (its box does). */
function crosses(a: FlowNode, b: FlowNode, r: Rect): boolean {
  return (
    Math.min(a.position.x, b.position.x) < r.maxX &&
    Math.max(a.position.x + a.width, b.position.x + b.width) > r.minX &&
    Math.min(a.position.y, b.position.y) < r.maxY &&
    Math.max(a.position.y + a.height, b.position.y + b.height) > r.minY
  );
}

/**
 * The cards inside `rect` and the lines touching or crossing it, with the far end of each
 * such line (so a line leaving the cover is still drawn to its card). Frames come first, so
 * they are drawn behind the cards they hold. Two passes over the cards; a line object is
 * asked for only for a line shown.
 */
export function visibleElements(
  cards: ReadonlyMap<string, FlowNode>,
  lines: Lines,
  rect: Rect | null,
): { nodes: FlowNode[]; edges: FlowEdge[] } {
  if (rect === null) return { nodes: [], edges: [] };
  const inside = new Set<string>();
  for (const card of cards.values()) if (overlaps(card, rect)) inside.add(card.id);
  const shownEdges: FlowEdge[] = [];
  const ends = new Set(inside);
  for (const card of cards.values()) {
    const source = lines.sourceOf(card);
    // A line from a card not held yet (a later part of a large answer) waits for it.
    const from = source === null ? undefined : cards.get(source);
    if (source === null || from === undefined) continue;
    if (!inside.has(source) && !inside.has(card.id) && !crosses(from, card, rect)) continue;
    const line = lines.into(card);
    if (line === null) continue;
    shownEdges.push(line);
    ends.add(source);
    ends.add(card.id);
  }
  const frames: FlowNode[] = [];
  const rest: FlowNode[] = [];
  for (const id of ends) {
    const card = cards.get(id);
    if (card === undefined) continue;
    (card.type === "frame" ? frames : rest).push(card);
  }
  return { nodes: [...frames, ...rest], edges: shownEdges };
}

/** Every card, frames first, and every line (the small graph's canvas gets them all). */
export function allElements(
  cards: ReadonlyMap<string, FlowNode>,
  lines: Lines,
): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const frames: FlowNode[] = [];
  const rest: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  for (const card of cards.values()) {
    (card.type === "frame" ? frames : rest).push(card);
    const line = lines.into(card);
    if (line !== null) edges.push(line);
  }
  return { nodes: [...frames, ...rest], edges };
}
