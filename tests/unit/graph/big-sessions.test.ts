import { describe, expect, it } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import type { GraphLayout } from "@/components/graph/flow-types";
import { layoutGraph } from "@/components/graph/layout";
import { LayoutCache } from "@/components/graph/tidy-tree";
import { nid, TestLedger } from "./ledger";

const FOLDED = { expanded: new Set<NodeId>(), showRelics: true };

const positions = (layout: GraphLayout) =>
  Object.fromEntries(layout.nodes.map((n) => [n.id, n.position]));

function width(layout: GraphLayout): number {
  let min = Infinity;
  let max = -Infinity;
  for (const n of layout.nodes) {
    min = Math.min(min, n.position.x);
    max = Math.max(max, n.position.x + n.width);
  }
  return max - min;
}

function expectNoOverlap(layout: GraphLayout): void {
  // Sorted by layer then x: overlapping cards are neighbours in this order.
  const cards = layout.nodes
    .filter((n) => n.type !== "frame")
    .sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
  for (let i = 1; i < cards.length; i += 1) {
    const a = cards[i - 1];
    const b = cards[i];
    if (a === undefined || b === undefined || a.position.y !== b.position.y) continue;
    expect(a.position.x + a.width, `${a.id} overlaps ${b.id}`).toBeLessThanOrEqual(b.position.x);
  }
}

/** `turns` exchanges; each reply was retried once and the first attempt left behind. */
function retried(turns: number): { ledger: TestLedger; tip: string } {
  const ledger = new TestLedger();
  let tip = "R";
  for (let i = 0; i < turns; i += 1) {
    ledger.chain(tip, `u${i} a${i}x`).add(`a${i}`, `u${i}`);
    tip = `a${i}`;
  }
  return { ledger, tip };
}

/** A bushy session: retries, edits with their own replies, notices, a spawned branch. */
function bushy(turns: number): { ledger: TestLedger; tip: string } {
  const ledger = new TestLedger();
  let tip = "R";
  for (let i = 0; i < turns; i += 1) {
    ledger.chain(tip, `u${i} a${i}`);
    if (i % 3 === 0) ledger.add(`a${i}r`, `u${i}`).chain(`a${i}r`, `u${i}r a${i}rr`);
    if (i % 5 === 0) ledger.add(`n${i}`, `a${i}`);
    if (i % 7 === 0) ledger.chain(tip, `u${i}e a${i}e`);
    tip = `a${i}`;
  }
  return { ledger, tip };
}

describe("the graph at scale (issue 10)", () => {
  it("[R129] appending a leaf re-lays out only the subtrees on its path to ROOT", () => {
    const { ledger, tip } = bushy(300);
    const cache = new LayoutCache();
    const before = layoutGraph(ledger.graph(tip), FOLDED, cache);
    const cards = before.nodes.filter((n) => n.type !== "side").length;
    expect(cards).toBeGreaterThan(900);
    expect(cache.computed).toBe(cards);

    // Unchanged: nothing is computed again.
    layoutGraph(ledger.graph(tip), FOLDED, cache);
    expect(cache.computed).toBe(0);

    // A reply appended at the tip: its own subtree plus one per ancestor card.
    ledger.add("u300", tip);
    const depth = (id: string): number => {
      let hops = 0;
      for (let at = ledger.nodes.find((n) => n.id === id); at?.predecessorId; hops += 1) {
        const pred = at.predecessorId;
        at = ledger.nodes.find((n) => n.id === pred);
      }
      return hops;
    };
    const after = layoutGraph(ledger.graph("u300"), FOLDED, cache);
    expect(cache.computed).toBe(depth("u300") + 1);
    // And the reused subtrees give exactly what a fresh layout gives.
    expect(positions(after)).toEqual(positions(layoutGraph(ledger.graph("u300"), FOLDED)));

    // An old branch grows: only its path is recomputed, not the trunk below it.
    ledger.add("u3rr", "a3rr");
    const grown = layoutGraph(ledger.graph("u300"), FOLDED, cache);
    expect(cache.computed).toBe(depth("u3rr") + 1);
    expect(cache.computed).toBeLessThan(20);
    expect(positions(grown)).toEqual(positions(layoutGraph(ledger.graph("u300"), FOLDED)));
  });

  it("[R129] a side leaf or an expanded capsule invalidates only what it touches", () => {
    const { ledger, tip } = bushy(120);
    ledger.summary("S", ["u0", "a0", "u1", "a1"]);
    const cache = new LayoutCache();
    layoutGraph(ledger.graph(tip, "S"), FOLDED, cache);
    ledger.add("n999", "a100");
    const graph = ledger.graph(tip, "S");
    const withNotice = layoutGraph(graph, FOLDED, cache);
    expect(cache.computed).toBeLessThan(300);
    expect(positions(withNotice)).toEqual(positions(layoutGraph(graph, FOLDED)));

    const expanded = { ...FOLDED, expanded: new Set([nid("S")]) };
    const open = layoutGraph(graph, expanded, cache);
    expect(positions(open)).toEqual(positions(layoutGraph(graph, expanded)));
  });

  it("[R130] retries along a chain do not drift it sideways: width stays bounded", () => {
    const short = retried(20);
    const long = retried(200);
    const narrow = layoutGraph(short.ledger.graph(short.tip), FOLDED);
    const wide = layoutGraph(long.ledger.graph(long.tip), FOLDED);
    expect(wide.nodes).toHaveLength(1 + 200 * 3);
    // Ten times the forks, not ten times the width (a centring tidy tree gives ~10x).
    expect(width(wide) / width(narrow)).toBeLessThan(1.5);
    // The conversation's column and the abandoned attempts beside it (the last fork, whose
    // two replies are both leaves, centres its question over them).
    expect(width(wide)).toBeLessThan(3 * 220);
    expectNoOverlap(wide);
  });

  it("[R130] HEAD's spine along the chain is one straight column; siblings stay oldest left", () => {
    const { ledger, tip } = retried(50);
    const layout = layoutGraph(ledger.graph(tip), FOLDED);
    const x = (id: string) => layout.nodes.find((n) => n.id === id)?.position.x;
    const spine = layout.nodes.filter((n) => n.type === "turn" && n.data.spine);
    expect(spine).toHaveLength(101);
    expect(new Set(spine.slice(0, -1).map((n) => n.position.x)).size).toBe(1);
    for (let i = 0; i < 50; i += 1) {
      const older = x(`a${i}x`);
      const newer = x(`a${i}`);
      if (older === undefined || newer === undefined) throw new Error(`a${i}`);
      expect(older).toBeLessThan(newer);
    }
    // Longer abandoned branches, edits and notices too: no two cards of a layer overlap.
    const big = bushy(200);
    expectNoOverlap(layoutGraph(big.ledger.graph(big.tip), FOLDED));
  });
});
