import { adoptUserNodes, getNodesInside, type InternalNodeBase } from "@xyflow/system";
import { describe, expect, it } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import { toFlow } from "@/components/graph/flow-node-types";
import type { GraphLayout } from "@/components/graph/flow-types";
import { layoutGraph } from "@/components/graph/layout";
import {
  CARD_TEXT_PX,
  fitViewport,
  frameViewport,
  headViewport,
  inView,
  isClear,
  openingViewport,
  READABLE_ZOOM,
  READING_ZOOM,
  screenRect,
} from "@/components/graph/opening-view";
import { TestLedger } from "./ledger";

const FOLDED = { expanded: new Set<NodeId>(), showRelics: false };
const PANE = { width: 1400, height: 900 };

/** `turns` exchanges with retries, edits and notices: ~3.4 nodes per turn. */
function session(turns: number): { ledger: TestLedger; tip: string } {
  const ledger = new TestLedger();
  let tip = "R";
  for (let i = 0; i < turns; i += 1) {
    ledger.chain(tip, `u${i} a${i}`);
    if (i % 2 === 0) ledger.add(`a${i}r`, `u${i}`);
    if (i % 3 === 0) ledger.chain(tip, `u${i}e a${i}e`);
    if (i % 5 === 0) ledger.add(`n${i}`, `a${i}`);
    tip = `a${i}`;
  }
  return { ledger, tip };
}

/**
 * The cards React Flow mounts with `onlyRenderVisibleElements` at a viewport: its own
 * selection (`getNodesInside`, partially visible counts) over the nodes as it adopts them.
 */
function mounted(layout: GraphLayout, view: { x: number; y: number; zoom: number }): number {
  const lookup = new Map<string, InternalNodeBase>();
  adoptUserNodes(toFlow(layout).nodes, lookup, new Map());
  const rect = { x: 0, y: 0, ...PANE };
  return getNodesInside(lookup, rect, [view.x, view.y, view.zoom], true).length;
}

describe("opening a large session (issue 10)", () => {
  // Lays out 10,000 nodes: seconds on a shared two-core machine, hence its own timeout.
  it("[R127] a 10,000-node session opens on HEAD, mounting at most ~300 cards", () => {
    const { ledger, tip } = session(3000);
    const graph = ledger.graph(tip);
    expect(graph.nodes.length).toBeGreaterThanOrEqual(10_000);
    const layout = layoutGraph(graph, FOLDED);
    const head = layout.nodes.find((n) => n.id === tip) ?? null;
    const view = openingViewport(layout.nodes, PANE, head);
    expect(view.zoom).toBe(READING_ZOOM);
    const count = mounted(layout, view);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(300);
    // Every card carries its size: none is mounted just to be measured.
    expect(mounted(layout, { x: -1e7, y: -1e7, zoom: 1 })).toBe(0);
  }, 30_000);

  it("[R127] a session that fits legibly opens whole, and still mounts few cards", () => {
    const { ledger, tip } = session(1);
    const layout = layoutGraph(ledger.graph(tip), FOLDED);
    const head = layout.nodes.find((n) => n.id === tip) ?? null;
    const view = openingViewport(layout.nodes, PANE, head);
    expect(view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(mounted(layout, view)).toBe(layout.nodes.length);
  });
});

describe("opening where the user is (issue 20)", () => {
  it("[R182] a 40-node session opens on HEAD at reading size, card text at 12 px or more", () => {
    const { ledger, tip } = session(12);
    const layout = layoutGraph(ledger.graph(tip), FOLDED);
    expect(layout.nodes.length).toBeGreaterThanOrEqual(40);
    const pane = { width: 630, height: 840 };
    const head = layout.nodes.find((n) => n.id === tip) ?? null;
    if (head === null) throw new Error("no HEAD card");
    const view = openingViewport(layout.nodes, pane, head);
    expect(view.zoom * CARD_TEXT_PX).toBeGreaterThanOrEqual(12);
    expect(inView(head, view, pane)).toBe(true);
    // HEAD's branch runs above it: the card above HEAD is in view too.
    const above = layout.edges.find((e) => e.target === tip)?.source;
    const parent = layout.nodes.find((n) => n.id === above);
    if (parent === undefined) throw new Error("no parent card");
    expect(inView(parent, view, pane)).toBe(true);
  });

  it("[R182] a compacted session opens on HEAD with the capsule its branch reads, when both fit readably", () => {
    // 12 exchanges with forks; the first ten are summarised (S, the active summary).
    const { ledger, tip } = session(12);
    const covered = Array.from({ length: 10 }, (_, i) => [`u${i}`, `a${i}`]).flat();
    ledger.summary("S", covered, "a9");
    const layout = layoutGraph(ledger.graph(tip, "S"), FOLDED);
    const pane = { width: 630, height: 840 };
    const head = layout.nodes.find((n) => n.id === tip) ?? null;
    const capsule = layout.nodes.find((n) => n.type === "capsule");
    if (head === null || capsule === undefined) throw new Error("no HEAD or capsule card");
    // HEAD's view alone would leave the capsule out of sight.
    expect(inView(capsule, headViewport(head, pane), pane)).toBe(false);
    const view = openingViewport(layout.nodes, pane, head);
    expect(view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(inView(head, view, pane)).toBe(true);
    expect(inView(capsule, view, pane)).toBe(true);
    // Too far apart to both read (a short pane): HEAD at reading size, as without one.
    const short = { width: 630, height: 300 };
    expect(openingViewport(layout.nodes, short, head)).toEqual(headViewport(head, short));
  });

  it("[R182] a whole-graph fit is used only while it stays readable", () => {
    const ledger = new TestLedger().chain("R", "u0 a0 u1 a1");
    const tip = "a1";
    const layout = layoutGraph(ledger.graph(tip), FOLDED);
    const pane = { width: 630, height: 840 };
    const head = layout.nodes.find((n) => n.id === tip) ?? null;
    const view = openingViewport(layout.nodes, pane, head);
    expect(view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    for (const card of layout.nodes) expect(inView(card, view, pane)).toBe(true);
  });

  it("[R182] framing what a reply read: all of it when readable, else the reply at the bottom with the nearest reads above it", () => {
    const { ledger, tip } = session(12);
    const layout = layoutGraph(ledger.graph(tip), FOLDED);
    const pane = { width: 630, height: 840 };
    const reply = layout.nodes.find((n) => n.id === tip);
    if (reply === undefined) throw new Error("no reply card");
    const near = layout.nodes.filter(
      (n) =>
        n.position.y >= reply.position.y - 300 && Math.abs(n.position.x - reply.position.x) < 200,
    );
    const close = frameViewport(near, pane, reply);
    expect(close.fits).toBe(true);
    expect(close.view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    for (const card of near) expect(inView(card, close.view, pane)).toBe(true);
    const far = frameViewport(layout.nodes, pane, reply);
    expect(far.fits).toBe(false);
    expect(far.view.zoom).toBe(READABLE_ZOOM);
    expect(inView(reply, far.view, pane)).toBe(true);
    // The reply sits at the bottom of the pane; the cards above it fill the rest of it.
    const replyBottom = (reply.position.y + reply.height) * far.view.zoom + far.view.y;
    expect(replyBottom).toBeGreaterThan(pane.height - 60);
    const shownAbove = layout.nodes.filter(
      (n) => n.position.y < reply.position.y && inView(n, far.view, pane),
    );
    expect(shownAbove.length).toBeGreaterThanOrEqual(4);
    // In a pane too short for all of them, more of the reads show than around the reply
    // placed as HEAD is (a little below the middle).
    const asHead = layout.nodes.filter(
      (n) => n.position.y < reply.position.y && inView(n, headViewport(reply, pane), pane),
    );
    expect(shownAbove.length).toBeGreaterThan(asHead.length);
  });

  it("[R182] the reply framed at the bottom is raised clear of the controls over the pane", () => {
    const { ledger, tip } = session(12);
    const layout = layoutGraph(ledger.graph(tip), FOLDED);
    const reply = layout.nodes.find((n) => n.id === tip);
    if (reply === undefined) throw new Error("no reply card");
    // A map across the bottom of the pane, where the reply would sit.
    const map = { left: 0, top: 680, right: 630, bottom: 840 };
    const pane = { width: 630, height: 840, covers: [map] };
    const { view, fits } = frameViewport(layout.nodes, pane, reply);
    expect(fits).toBe(false);
    expect(isClear(reply, view, pane)).toBe(true);
    expect(screenRect(reply, view).bottom).toBeGreaterThan(map.top - 40);
  });

  it("[R183] a fit keeps every card clear of the controls over the pane, at the larger zoom that can", () => {
    const card = (x: number, y: number) => ({ position: { x, y }, width: 220, height: 72 });
    const cards = [card(0, 0), card(300, 0), card(0, 200), card(300, 200)];
    // The map in the bottom-right corner, where the plain fit puts the last card.
    const map = { left: 390, top: 240, right: 590, bottom: 390 };
    const pane = { width: 600, height: 400, covers: [map] };
    const plain = fitViewport(cards, { width: 600, height: 400 });
    expect(cards.every((c) => isClear(c, plain, pane))).toBe(false);
    const view = fitViewport(cards, pane);
    expect(cards.every((c) => isClear(c, view, pane))).toBe(true);
    // Its strip taken off the bottom (0.75) shrinks the cards less than off the right (0.68).
    expect(view.zoom).toBeCloseTo(0.75);
    // Nothing under a control: the plain fit, unchanged.
    expect(fitViewport(cards, { ...pane, covers: [{ ...map, top: 380 }] })).toEqual(plain);
  });
});
