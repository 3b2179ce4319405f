import { hierarchy, tree, type HierarchyNode, type HierarchyPointNode } from "d3-hierarchy";
import type { DrawNode } from "./draw-tree";
import { SIZE } from "./flow-types";

/**
 * One layer of one card. A card spanning several layers (the expanded frame) is a chain of
 * parts, so the tidy tree keeps every other card out of every layer it occupies. The
 * forest's virtual root is `null`, so several roots share one tree.
 */
export type Datum = { readonly card: DrawNode; readonly part: number } | null;

/** How much room a card claims: its width, and how many layers tall it is. */
export type Measure = (card: DrawNode) => { readonly width: number; readonly span: number };

const LEAF = () => undefined;

/**
 * The placement of every card: d3's Reingold–Tilford tidy tree (linear), one x unit per
 * pixel, each card centred on its x. The hierarchy is linked by hand: `hierarchy()` computes
 * node heights by walking up from every node, which is quadratic on a long conversation
 * chain, and the tree layout reads only parents and children (callers track depth).
 */
export function tidyTree(roots: readonly DrawNode[], measure: Measure): HierarchyPointNode<Datum> {
  const width = (datum: Datum) => (datum === null ? 0 : measure(datum.card).width);
  // d3 calls separation with the pair in either order, so it must be symmetric: half of
  // each width plus a gap is exactly the room two centred neighbours need.
  const separation = (a: HierarchyNode<Datum>, b: HierarchyNode<Datum>) =>
    (width(a.data) + width(b.data)) / 2 + (a.parent === b.parent ? SIZE.gap : SIZE.cousinGap);

  const top = hierarchy<Datum>(null, LEAF);
  const stack: { readonly node: HierarchyNode<Datum>; readonly cards: readonly DrawNode[] }[] = [
    { node: top, cards: roots },
  ];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined || item.cards.length === 0) continue;
    const parent = item.node;
    parent.children = item.cards.map((card) => {
      const first = hierarchy<Datum>({ card, part: 0 }, LEAF);
      first.parent = parent;
      let last = first;
      for (let part = 1; part < measure(card).span; part += 1) {
        const next = hierarchy<Datum>({ card, part }, LEAF);
        next.parent = last;
        last.children = [next];
        last = next;
      }
      stack.push({ node: last, cards: card.children });
      return first;
    });
  }
  return tree<Datum>().nodeSize([1, SIZE.row]).separation(separation)(top);
}
