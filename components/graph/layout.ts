import type { GraphView } from "@/lib/engine/build-graph";
import type { NodeId } from "@/lib/engine/ids";
import type { ProvenanceMarks } from "@/lib/engine/provenance-marks";
import { drawTree, type DrawNode } from "./draw-tree";
import {
  capsuleNode,
  edge,
  frameNode,
  sideNode,
  turnNode,
  type ElementContext,
} from "./flow-elements";
import { HANDLE, SIZE, type FlowEdge, type FlowNode, type GraphLayout } from "./flow-types";
import { buildNav } from "./nav";
import { LayoutCache, tidyTree, type Measure, type Placement } from "./tidy-tree";

export interface LayoutOptions {
  readonly expanded: ReadonlySet<NodeId>;
  readonly showRelics: boolean;
  readonly marks?: ProvenanceMarks | null;
}

const SIDE_PITCH = SIZE.side.width + SIZE.sideGap;
const cardSize = (card: DrawNode) => (card.shape === "capsule" ? SIZE.capsule : SIZE.turn);

/** A card plus its side leaves in a row to its right: the width it claims in its layer. */
function slotWidth(card: DrawNode): number {
  return cardSize(card).width + card.sides.length * SIDE_PITCH;
}

/** The frame's contents, laid out on their own: the frame claims their extent. */
interface Inner {
  readonly cards: readonly DrawNode[];
  readonly placed: Placement;
  readonly minX: number;
  readonly width: number;
  readonly span: number;
}

function innerLayout(cards: readonly DrawNode[], measure: Measure, cache: LayoutCache): Inner {
  const placed = tidyTree(cards, measure, cache);
  const content = placed.maxX - placed.minX + 2 * SIZE.framePad;
  const width = Math.max(content, SIZE.frameMinWidth);
  // Centre narrow contents in the widened frame.
  return {
    cards,
    placed,
    minX: placed.minX - (width - content) / 2,
    width,
    span: Math.max(1, placed.layers),
  };
}

interface Emitter extends ElementContext {
  readonly frames: FlowNode[];
  readonly cards: FlowNode[];
  readonly sides: FlowNode[];
  readonly edges: FlowEdge[];
  /** Cards without an incoming edge, left to right. */
  readonly roots: string[];
  /** Each frame's contents, laid out. */
  readonly inners: ReadonlyMap<DrawNode, Inner>;
}

/**
 * Emits one placed forest, preorder, children left to right, so each card's outgoing edges
 * come out in x order (navigation relies on it). `depth0` and `dx` shift a frame's contents.
 */
function emit(
  tops: readonly DrawNode[],
  placed: Placement,
  depth0: number,
  dx: number,
  out: Emitter,
): void {
  const stack = tops.map((card) => ({ card, depth: depth0, parent: null as string | null }));
  stack.reverse();
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined) continue;
    const { card, depth } = item;
    // The frame's top layer holds the capsule; the covered turns fill the layers below it.
    const inner = card.shape === "frame" ? out.inners.get(card) : undefined;
    const span = inner === undefined ? 1 : inner.span + 1;
    for (let i = card.children.length - 1; i >= 0; i -= 1) {
      const child = card.children[i];
      if (child !== undefined) stack.push({ card: child, depth: depth + span, parent: card.id });
    }
    const x = placed.x.get(card) ?? 0;
    const top = depth * SIZE.row;

    if (inner !== undefined && card.capsule !== null) {
      // The capsule stays where it was folded (its top at this layer's top); the originals
      // (or, nested, the capsules of the summaries it names) start one layer below it.
      const left = Math.round(x + dx - inner.width / 2);
      // Emitted first, so the frame reaches below the tallest card of its last layer (a
      // capsule, or a frame of a nested summary's); it is listed before them, so it is
      // painted behind them.
      const at = out.frames.length;
      const cardsBefore = out.cards.length;
      const innerDx = left + SIZE.framePad - inner.minX;
      emit(inner.cards, inner.placed, depth + 1, innerDx, out);
      let bottom = top + inner.span * SIZE.row + SIZE.turn.height;
      for (const held of [...out.cards.slice(cardsBefore), ...out.frames.slice(at)]) {
        bottom = Math.max(bottom, held.position.y + held.height);
      }
      const box = {
        position: { x: left, y: top - SIZE.framePad },
        width: inner.width,
        height: bottom + SIZE.framePad - (top - SIZE.framePad),
      };
      out.frames.splice(at, 0, frameNode(card.capsule, box, out.marks));
      continue;
    }

    const size = cardSize(card);
    const left = Math.round(x + dx - slotWidth(card) / 2);
    const node =
      card.shape === "capsule" && card.capsule !== null
        ? capsuleNode(card, card.capsule, { x: left, y: top }, out.marks)
        : turnNode(card, { x: left, y: top }, out);
    out.cards.push(node);

    const source = card.edgeFrom ?? item.parent;
    if (source === null) out.roots.push(card.id);
    else {
      const raw = card.row.rawFork;
      // A branch leaving the expanded frame exits sideways, clear of the covered column.
      const handle =
        card.port !== null
          ? HANDLE.port(card.port)
          : raw && card.edgeFrom !== null
            ? HANDLE.side
            : HANDLE.out;
      out.edges.push(
        edge(
          source,
          card.id,
          { source: handle, target: HANDLE.in },
          {
            variant: raw
              ? "raw"
              : card.row.callerId !== null &&
                  card.row.kind !== "tool" &&
                  card.row.predecessorId === card.row.callerId
                ? "spawn"
                : "tree",
            spine: node.data.spine,
            dim: out.marks !== null && node.data.glow !== "glow",
            faded: false,
          },
        ),
      );
    }

    card.sides.forEach((row, i) => {
      const x = left + size.width + SIZE.sideGap + i * SIDE_PITCH;
      const side = sideNode(row, { x, y: top + (size.height - SIZE.side.height) / 2 }, out.marks);
      out.sides.push(side);
      out.edges.push(
        edge(
          card.id,
          row.id,
          { source: HANDLE.side, target: HANDLE.in },
          {
            variant: "side",
            spine: false,
            dim: out.marks !== null && side.data.glow !== "glow",
            faded: side.data.kind === "relic",
          },
        ),
      );
    });
  }
}

/**
 * The whole session DAG as React Flow nodes and edges (graph.md): a top-down tidy tree
 * (tidy-tree.ts, linear time), ROOT on top, siblings oldest left. Positions are a function of
 * the ledger, the expanded capsules and the relic toggle only — never of HEAD or the marks,
 * which change flags, not geometry. Side leaves sit in a row right of the card they hang
 * off. An expanded capsule is a frame several layers tall holding the covered turns (a
 * nested one: the capsules of the summaries it names, each of which may be a frame in
 * turn); the branches that leave them hang below it, as they hang below the folded capsule.
 *
 * `cache` carries per-subtree layouts from the previous call (the canvas and the layout
 * worker keep one each): appending a node re-lays out only its card's ancestors.
 */
export function layoutGraph(
  view: GraphView,
  opts: LayoutOptions,
  cache: LayoutCache = new LayoutCache(),
): GraphLayout {
  const drawn = drawTree(view, opts);
  const frames = drawn.standIns.filter((card) => card.shape === "frame");
  cache.begin();
  // Frames inside frames (a nested summary unfolded): the innermost are laid out first, so
  // each frame claims its contents' extent.
  const inners = new Map<DrawNode, Inner>();
  const measure: Measure = (card) => {
    const inner = card.shape === "frame" ? inners.get(card) : undefined;
    return inner === undefined
      ? { width: slotWidth(card), span: 1 }
      : { width: inner.width, span: inner.span + 1 };
  };
  for (const frame of [...frames].reverse()) {
    inners.set(frame, innerLayout(frame.inner, measure, cache));
  }

  const out: Emitter = {
    view,
    marks: opts.marks ?? null,
    frames: [],
    cards: [],
    sides: [],
    edges: [],
    roots: [],
    inners,
  };
  emit(drawn.roots, tidyTree(drawn.roots, measure, cache), 0, 0, out);
  cache.end();

  const frameNav = frames.map((frame) => ({ id: frame.id, down: frame.inner[0]?.id ?? null }));
  return {
    // Frames first: React Flow paints later nodes on top, so a frame stays behind its cards.
    nodes: [...out.frames, ...out.cards, ...out.sides],
    edges: out.edges,
    nav: buildNav(out.edges, out.roots, frameNav),
  };
}
