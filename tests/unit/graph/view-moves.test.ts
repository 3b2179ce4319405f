import { describe, expect, it } from "vitest";
import { SIZE, type FlowNode } from "@/components/graph/flow-types";
import { FIT_PADDING, inView } from "@/components/graph/opening-view";
import {
  bringIntoView,
  capsuleBox,
  isClear,
  keepInPlace,
  onScreen,
  sameView,
} from "@/components/graph/view-moves";
import { wordDiff } from "@/components/compare/word-diff";

const box = (x: number, y: number, width = 220, height = 72) => ({
  position: { x, y },
  width,
  height,
});
const PANE = { width: 600, height: 800 };

describe("moves of the graph's view (issue 20)", () => {
  it("[R183] keeping a card in place: the new card's top-centre lands where the old one's was", () => {
    const was = box(100, 200);
    const view = { x: 40, y: -30, zoom: 0.8 };
    const now = box(400, 200);
    const next = keepInPlace(was, view, now, 1);
    const a = onScreen(was, view);
    const b = onScreen(now, next);
    expect(b.y).toBeCloseTo(a.y);
    expect(b.x + now.width / 2).toBeCloseTo(a.x + (was.width * view.zoom) / 2);
    expect(next.zoom).toBe(1);
  });

  it("[R183] bringing a box into view moves as little as it can, and keeps its top when too tall", () => {
    const view = { x: 0, y: 0, zoom: 1 };
    expect(bringIntoView(box(10, 10), { x: 30, y: 80, zoom: 1 }, PANE)).toEqual({
      x: 30,
      y: 80,
      zoom: 1,
    });
    const below = bringIntoView(box(100, 900), view, PANE);
    expect(inView(box(100, 900), below, PANE)).toBe(true);
    expect(below.x).toBe(0);
    const tall = box(100, 900, 300, 2000);
    const top = onScreen(tall, bringIntoView(tall, view, PANE));
    expect(top.y).toBe(FIT_PADDING.top);
  });

  it("[R183] a card brought into view is kept clear of the controls drawn over the pane", () => {
    // The minimap with "Back to HEAD" at the bottom right, a banner at the top left.
    const minimap = { left: 380, top: 600, right: 590, bottom: 790 };
    const toolbar = { left: 10, top: 10, right: 300, bottom: 50 };
    const pane = { ...PANE, covers: [minimap, toolbar] };
    const view = { x: 0, y: 0, zoom: 1 };
    // Below the pane, at the minimap's side: brought up, above the minimap, not under it.
    const card = box(340, 900);
    const plain = bringIntoView(card, view, PANE);
    expect(isClear(card, plain, pane)).toBe(false);
    const clear = bringIntoView(card, view, pane);
    expect(isClear(card, clear, pane)).toBe(true);
    expect(clear.x).toBe(plain.x);
    expect(onScreen(card, clear).y + card.height).toBeLessThanOrEqual(minimap.top);
    // Already clear: no move.
    expect(bringIntoView(box(100, 200), view, pane)).toEqual(view);
    // Too big to clear them: inside the pane is the best there is.
    const wide = box(0, 700, 560, 700);
    expect(bringIntoView(wide, view, pane)).toEqual(bringIntoView(wide, view, PANE));
  });

  it("[R183] the capsule keeps its box at the top of its unfolded frame", () => {
    const frame = {
      id: "S",
      type: "frame",
      position: { x: 0, y: 100 },
      width: 400,
      height: 600,
      data: {},
    } as unknown as FlowNode;
    expect(capsuleBox(frame)).toEqual({
      position: { x: (400 - SIZE.capsule.width) / 2, y: 100 + SIZE.framePad },
      width: SIZE.capsule.width,
      height: SIZE.capsule.height,
    });
    expect(sameView({ x: 1, y: 2, zoom: 1 }, { x: 1.2, y: 2, zoom: 1 })).toBe(true);
    expect(sameView({ x: 1, y: 2, zoom: 1 }, { x: 9, y: 2, zoom: 1 })).toBe(false);
  });
});

describe("the compare view's word marks (issue 20)", () => {
  it("[R184] marks the words one reply has and the other lacks, keeping spaces and line breaks", () => {
    const diff = wordDiff(
      "Take the train from Santa Apolónia.\nIt is fast.",
      "Take the train from Oriente.\nIt is fast.",
    );
    if (diff === null) throw new Error("no diff");
    const text = (parts: readonly { text: string }[]) => parts.map((p) => p.text).join("");
    expect(text(diff.left)).toBe("Take the train from Santa Apolónia.\nIt is fast.");
    expect(text(diff.right)).toBe("Take the train from Oriente.\nIt is fast.");
    expect(diff.left.filter((p) => p.change === "removed").map((p) => p.text.trim())).toContain(
      "Santa Apolónia",
    );
    expect(diff.right.filter((p) => p.change === "added").map((p) => p.text)).toEqual(["Oriente"]);
    expect(diff.same).toBeGreaterThan(0.5);
  });
});
