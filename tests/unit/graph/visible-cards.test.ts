import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowEdge, FlowNode } from "@/components/graph/flow-types";
import { linesOf } from "@/components/graph/flow-elements";
import { coverKey, coverRect, visibleElements } from "@/components/graph/visible-cards";

function card(id: string, x: number, y: number, type: FlowNode["type"] = "turn"): FlowNode {
  return { id, type, position: { x, y }, width: 200, height: 60, data: {} } as FlowNode;
}

function edge(source: string, target: string): FlowEdge {
  return {
    id: `${source}-${target}`,
    type: "spindle",
    source,
    target,
    sourceHandle: "out",
    targetHandle: "in",
    data: { variant: "tree", spine: false, dim: false, faded: false },
  };
}

describe("[R138] a large graph's canvas is given the cards around the view", () => {
  it("[R138] the view always lies inside the cover its key stands for", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 0.05, max: 1.75, noNaN: true }),
        fc.integer({ min: 200, max: 3000 }),
        fc.integer({ min: 200, max: 2000 }),
        (tx, ty, zoom, width, height) => {
          const rect = coverRect(coverKey([tx, ty, zoom], width, height));
          if (rect === null) throw new Error("no cover");
          const view = {
            x0: -tx / zoom,
            y0: -ty / zoom,
            x1: (width - tx) / zoom,
            y1: (height - ty) / zoom,
          };
          expect(view.x0).toBeGreaterThanOrEqual(rect.minX);
          expect(view.y0).toBeGreaterThanOrEqual(rect.minY);
          expect(view.x1).toBeLessThanOrEqual(rect.maxX);
          expect(view.y1).toBeLessThanOrEqual(rect.maxY);
        },
      ),
    );
  });

  it("[R138] small pans keep the key (no re-render); a pane's pan or a zoom level changes it", () => {
    const key = coverKey([-5000, -3000, 0.8], 1400, 900);
    expect(coverKey([-5010, -3004, 0.8], 1400, 900)).toBe(key);
    expect(coverKey([-5000 - 1400, -3000, 0.8], 1400, 900)).not.toBe(key);
    expect(coverKey([-5000, -3000, 0.4], 1400, 900)).not.toBe(key);
    expect(coverKey([0, 0, 1], 0, 0)).toBe("");
    expect(coverRect("")).toBeNull();
  });

  it("[R138] cards outside the cover are left out; an edge into it brings its far card", () => {
    const cards = new Map(
      [
        card("frame", -50, -50, "frame"),
        card("near", 100, 100),
        card("far", 90_000, 90_000),
        card("parent", 100, -40_000),
        card("stray", 50_000, 0),
      ].map((c) => [c.id, c]),
    );
    const edges = linesOf([edge("parent", "near"), edge("far", "stray")]);
    const shown = visibleElements(cards, edges, {
      minX: -1000,
      minY: -1000,
      maxX: 1000,
      maxY: 1000,
    });
    expect(shown.nodes.map((n) => n.id)).toEqual(["frame", "near", "parent"]);
    expect(shown.edges.map((e) => e.id)).toEqual(["parent-near"]);
    expect(visibleElements(cards, edges, null)).toEqual({ nodes: [], edges: [] });
    // A line between two cards far on either side of the cover still crosses it.
    const across = new Map(
      [card("left", -50_000, 0), card("right", 50_000, 0)].map((c) => [c.id, c]),
    );
    const line = linesOf([edge("left", "right")]);
    const crossing = visibleElements(across, line, {
      minX: -1000,
      minY: -1000,
      maxX: 1000,
      maxY: 1000,
    });
    expect(crossing.edges.map((e) => e.id)).toEqual(["left-right"]);
    expect(crossing.nodes.map((n) => n.id)).toEqual(["left", "right"]);
  });
});
