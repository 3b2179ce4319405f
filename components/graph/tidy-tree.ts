import type { DrawNode } from "./draw-tree";
import { SIZE } from "./flow-types";

/** How much room a card claims: its width, and how many layers tall it is. */
export type Measure = (card: DrawNode) => { readonly width: number; readonly span: number };

/**
 * A subtree's extent layer by layer, top first: `lo`/`hi` are its left and right edges in
 * this layer's frame, and the layer below is read in this frame by adding `dx` to its
 * numbers. Immutable and shared: a parent's contour reuses its tallest child's tail, so
 * building it costs only the layers where children meet.
 */
interface Contour {
  readonly lo: number;
  readonly hi: number;
  readonly next: Contour | null;
  readonly dx: number;
}

/**
 * One card's subtree laid out on its own, relative to the card's centre. A pure function of
 * the card's width and span and its children's subtrees, so it is cached by card id and
 * reused while those three are unchanged (`LayoutCache`).
 */
export interface Subtree {
  readonly width: number;
  readonly span: number;
  readonly kids: readonly Subtree[];
  /** Each child's centre, relative to this card's centre. */
  readonly offsets: readonly number[];
  readonly contour: Contour;
  /** Layers from this card's top to the subtree's bottom. */
  readonly height: number;
}

/**
 * Per-subtree layouts kept from one layout to the next, keyed by card id and checked by
 * structure (width, span, the children's subtrees by identity). Appending a node invalidates
 * only the path from its card up to the root; every other subtree is reused as is. Entries
 * not used by the latest layout are dropped, so the cache holds one graph's worth.
 */
export class LayoutCache {
  private last = new Map<string, Subtree>();
  private next = new Map<string, Subtree>();
  /** Subtree layouts computed (not reused) by the latest layout: a structural counter. */
  computed = 0;

  begin(): void {
    this.computed = 0;
    this.next = new Map();
  }

  lookup(id: string, width: number, span: number, kids: readonly Subtree[]): Subtree | null {
    const hit = this.last.get(id) ?? this.next.get(id);
    if (hit === undefined || hit.width !== width || hit.span !== span) return null;
    if (hit.kids.length !== kids.length) return null;
    for (let i = 0; i < kids.length; i += 1) if (hit.kids[i] !== kids[i]) return null;
    return hit;
  }

  keep(id: string, subtree: Subtree): void {
    this.next.set(id, subtree);
  }

  end(): void {
    this.last = this.next;
    this.next = new Map();
  }
}

/** Where one forest's cards sit: centre x per card, and the forest's overall extent. */
export interface Placement {
  readonly x: ReadonlyMap<DrawNode, number>;
  readonly minX: number;
  readonly maxX: number;
  /** Layers the forest occupies. */
  readonly layers: number;
}

/**
 * Packs subtrees left to right, each as far left as the ones before it allow in every layer
 * they share (siblings `SIZE.gap` apart in their own layer, `SIZE.cousinGap` deeper down).
 * Returns the children's offsets from the first one and their merged contour in its frame.
 * Costs the shared layers of each pair merged, which sums to linear over a tree.
 */
function pack(kids: readonly Subtree[]): { offsets: number[]; contour: Contour | null } {
  const offsets: number[] = [];
  let acc: Contour | null = null;
  for (const kid of kids) {
    if (acc === null) {
      offsets.push(0);
      acc = kid.contour;
      continue;
    }
    // The smallest shift that clears every shared layer.
    let shift = -Infinity;
    let a: Contour | null = acc;
    let b: Contour | null = kid.contour;
    let ax = 0;
    let bx = 0;
    let layer = 0;
    while (a !== null && b !== null) {
      const gap = layer === 0 ? SIZE.gap : SIZE.cousinGap;
      shift = Math.max(shift, a.hi + ax + gap - (b.lo + bx));
      ax += a.dx;
      bx += b.dx;
      a = a.next;
      b = b.next;
      layer += 1;
    }
    offsets.push(shift);
    // Merge: the shared layers take the left edge from the left forest and the right edge
    // from the new subtree; below them the taller side's tail is shared, not copied.
    const shared: { lo: number; hi: number }[] = [];
    let l: Contour | null = acc;
    let r: Contour | null = kid.contour;
    let lx = 0;
    let rx = shift;
    while (l !== null && r !== null) {
      shared.push({ lo: l.lo + lx, hi: r.hi + rx });
      lx += l.dx;
      rx += r.dx;
      l = l.next;
      r = r.next;
    }
    let tail: Contour | null = l ?? r;
    let dx = l !== null ? lx : rx;
    for (let i = shared.length - 1; i >= 0; i -= 1) {
      const layerExtent = shared[i];
      if (layerExtent === undefined) continue;
      tail = { lo: layerExtent.lo, hi: layerExtent.hi, next: tail, dx };
      dx = 0;
    }
    acc = tail;
  }
  return { offsets, contour: acc };
}

/**
 * Where a parent sits over its children: above its tallest child — the branch that goes on
 * — or, when several are equally tall, centred over them. A chain whose turns each carry a
 * dead retry therefore stays one straight column with the retries beside it, instead of
 * stepping half a card sideways at every fork (classic tidy trees centre the parent over
 * all its children, which drifts linearly with the number of forks along a chain).
 */
function anchor(kids: readonly Subtree[], offsets: readonly number[]): number {
  let tallest = 0;
  for (const kid of kids) tallest = Math.max(tallest, kid.height);
  let first = -1;
  let last = -1;
  kids.forEach((kid, i) => {
    if (kid.height !== tallest) return;
    if (first < 0) first = i;
    last = i;
  });
  return ((offsets[first] ?? 0) + (offsets[last] ?? 0)) / 2;
}

function subtree(width: number, span: number, kids: readonly Subtree[]): Subtree {
  const own = (next: Contour | null, dx: number): Contour => ({
    lo: -width / 2,
    hi: width / 2,
    next,
    dx,
  });
  if (kids.length === 0) {
    let contour = own(null, 0);
    for (let part = 1; part < span; part += 1) contour = own(contour, 0);
    return { width, span, kids, offsets: [], contour, height: span };
  }
  const packed = pack(kids);
  const centre = anchor(kids, packed.offsets);
  let contour = own(packed.contour, -centre);
  for (let part = 1; part < span; part += 1) contour = own(contour, 0);
  let below = 0;
  for (const kid of kids) below = Math.max(below, kid.height);
  return {
    width,
    span,
    kids,
    offsets: packed.offsets.map((offset) => offset - centre),
    contour,
    height: span + below,
  };
}

/**
 * The placement of every card of a forest (graph.md, Layout): a layered tidy tree, one x
 * unit per pixel, each card centred on its x, siblings in the given order (oldest left)
 * with no two cards of a layer closer than the gap. Subtrees are laid out bottom-up and
 * packed by their contours (Reingold–Tilford); each is reused from `cache` when its
 * structure is unchanged. Iterative: a 100k-turn chain does not overflow the stack.
 */
export function tidyTree(
  roots: readonly DrawNode[],
  measure: Measure,
  cache: LayoutCache = new LayoutCache(),
): Placement {
  // Post-order without recursion: children's subtrees before their parent's.
  const done = new Map<DrawNode, Subtree>();
  const stack: { card: DrawNode; open: boolean }[] = roots.map((card) => ({ card, open: false }));
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined) continue;
    const { card } = item;
    if (!item.open) {
      stack.push({ card, open: true });
      for (const child of card.children) stack.push({ card: child, open: false });
      continue;
    }
    const kids = card.children.map((child) => done.get(child)).filter((s) => s !== undefined);
    const { width, span } = measure(card);
    let laid = cache.lookup(card.id, width, span, kids);
    if (laid === null) {
      laid = subtree(width, span, kids);
      cache.computed += 1;
    }
    cache.keep(card.id, laid);
    done.set(card, laid);
  }

  const tops = roots.map((card) => done.get(card)).filter((s) => s !== undefined);
  const forest = pack(tops);
  const x = new Map<DrawNode, number>();
  const walk: { card: DrawNode; at: number }[] = roots.map((card, i) => ({
    card,
    at: forest.offsets[i] ?? 0,
  }));
  while (walk.length > 0) {
    const item = walk.pop();
    if (item === undefined) continue;
    x.set(item.card, item.at);
    const laid = done.get(item.card);
    item.card.children.forEach((child, i) => {
      walk.push({ card: child, at: item.at + (laid?.offsets[i] ?? 0) });
    });
  }

  let minX = Infinity;
  let maxX = -Infinity;
  let layers = 0;
  let at = 0;
  for (let c = forest.contour; c !== null; c = c.next) {
    minX = Math.min(minX, c.lo + at);
    maxX = Math.max(maxX, c.hi + at);
    layers += 1;
    at += c.dx;
  }
  return { x, minX: layers === 0 ? 0 : minX, maxX: layers === 0 ? 0 : maxX, layers };
}
