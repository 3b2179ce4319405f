import { describe, expect, it } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import { layoutGraph } from "@/components/graph/layout";
import {
  flowPointAt,
  mapFrame,
  ORDER,
  paintOf,
  paintRanks,
  rgbaPixels,
  viewOnMap,
} from "@/components/graph/minimap-paint";
import { boundsOf } from "@/components/graph/opening-view";
import { compacted } from "./ledger";

const FOLDED = { expanded: new Set<NodeId>(), showRelics: false };

describe("the minimap's pixels (issue 20)", () => {
  const layout = layoutGraph(compacted().graph("a3", "S"), FOLDED);
  const bounds = boundsOf(layout.nodes);
  if (bounds === null) throw new Error("no cards");
  const width = 200;
  const scale = width / (bounds.maxX - bounds.minX);
  const height = Math.ceil((bounds.maxY - bounds.minY) * scale) + 1;
  const box = { scaleX: scale, scaleY: scale, minX: bounds.minX, minY: bounds.minY };
  const at = (ranks: Uint8Array, x: number, y: number) =>
    ranks[Math.floor((y - box.minY) * scale) * width + Math.floor((x - box.minX) * scale)];

  it("marks each card's pixels with its paint, HEAD over everything it overlaps", () => {
    const ranks = paintRanks(width, height, box, 1, layout.nodes, "a3");
    for (const card of layout.nodes) {
      if (card.type === "frame") continue;
      const centre = at(ranks, card.position.x + card.width / 2, card.position.y + card.height / 2);
      const paint = paintOf(card, "a3");
      // A card's centre shows its own paint, or one drawn over it (HEAD grows by 3 px).
      expect(centre).toBeGreaterThanOrEqual(ORDER.indexOf(paint) + 1);
    }
    const head = layout.nodes.find((c) => c.id === "a3");
    if (head === undefined) throw new Error("no HEAD card");
    expect(at(ranks, head.position.x + 1, head.position.y + 1)).toBe(ORDER.indexOf("head") + 1);
    // Most of the map is background between the cards.
    const painted = ranks.filter((r) => r > 0).length;
    expect(painted).toBeGreaterThan(0);
    expect(painted).toBeLessThan(ranks.length);
  });

  it("stays inside the canvas and scales with the device's pixel ratio", () => {
    const one = paintRanks(width, height, box, 1, layout.nodes, "a3");
    const two = paintRanks(width * 2, height * 2, box, 2, layout.nodes, "a3");
    expect(one.length).toBe(width * height);
    expect(two.length).toBe(4 * width * height);
    const count = (r: Uint8Array) => r.filter((x) => x > 0).length;
    expect(count(two) / count(one)).toBeGreaterThan(3);
    expect(count(two) / count(one)).toBeLessThan(5);
  });

  it("colours each pixel by its paint and leaves the background transparent", () => {
    const ranks = Uint8Array.from([0, 1, 5]);
    const colours = ORDER.map((_, i) => [i, i, i, 255] as const);
    expect([...rgbaPixels(ranks, colours)]).toEqual([0, 0, 0, 0, 0, 0, 0, 255, 4, 4, 4, 255]);
  });

  it("keeps the layout's aspect, and stretches a very wide or very tall one across its box", () => {
    const pane = { width: 1400, height: 900 };
    const square = mapFrame({ minX: 0, minY: 0, maxX: 4000, maxY: 3000 }, pane);
    expect(square.width).toBe(200);
    expect(square.height).toBe(150);
    expect(square.scaleX).toBeCloseTo(square.scaleY, 4);
    // 100,000 nodes with many retries: 2 px tall at one scale; stretched down to 60.
    const wide = mapFrame({ minX: -50_000, minY: 0, maxX: 7_000_000, maxY: 26_000 }, pane);
    expect(wide.width).toBe(200);
    expect(wide.height).toBe(60);
    expect(wide.scaleY).toBeGreaterThan(wide.scaleX * 50);
    // A long chat without forks: stretched across to 80.
    const tall = mapFrame({ minX: 0, minY: 0, maxX: 220, maxY: 256_000 }, pane);
    expect(tall.height).toBe(150);
    expect(tall.width).toBe(80);
    const wideRanks = paintRanks(
      wide.width,
      wide.height,
      wide,
      1,
      layout.nodes.slice(0, 1).map((card) => ({ ...card, position: { x: 0, y: 25_900 } })),
      null,
    );
    // A card at the bottom of the wide layout is painted on the map's last rows, not cut off.
    expect(wideRanks.slice((wide.height - 2) * wide.width).some((r) => r > 0)).toBe(true);
  });

  it("places the view's rectangle and the pointer with each axis's own scale", () => {
    const wide = mapFrame(
      { minX: 0, minY: 0, maxX: 1_000_000, maxY: 10_000 },
      { width: 1400, height: 900 },
    );
    expect(wide.scaleY).toBeGreaterThan(wide.scaleX * 10);
    // A 1,000 × 500 view at zoom 1 whose top-left is the flow point (500,000, 2,000).
    const view = viewOnMap(wide, [-500_000, -2_000, 1], 1_000, 500);
    expect(view?.left).toBeCloseTo(500_000 * wide.scaleX, 6);
    expect(view?.top).toBeCloseTo(2_000 * wide.scaleY, 6);
    expect(view?.width).toBeCloseTo(1_000 * wide.scaleX, 6);
    expect(view?.height).toBeCloseTo(500 * wide.scaleY, 6);
    // The pointer at the rectangle's corner is the view's corner in the layout.
    const corner = flowPointAt(wide, view?.left ?? 0, view?.top ?? 0);
    expect(corner.x).toBeCloseTo(500_000, 6);
    expect(corner.y).toBeCloseTo(2_000, 6);
    // A view off the map has no rectangle.
    expect(viewOnMap(wide, [5_000_000, 0, 1], 1_000, 500)).toBeNull();
  });
});
