import { describe, expect, it } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import type { FlowNode } from "@/components/graph/flow-types";
import { layoutGraph } from "@/components/graph/layout";
import { navigate } from "@/components/graph/nav";
import { compacted, nid, TestLedger } from "./ledger";

const NONE = new Set<NodeId>();

const overlaps = (a: FlowNode, b: FlowNode) =>
  a.position.x < b.position.x + b.width &&
  b.position.x < a.position.x + a.width &&
  a.position.y < b.position.y + b.height &&
  b.position.y < a.position.y + a.height;

/** A bushy session: a long trunk with a retry every few turns and a notice now and then. */
function bushy(turns: number): TestLedger {
  const l = new TestLedger();
  let tip = "R";
  for (let i = 0; i < turns; i += 1) {
    l.chain(tip, `u${i} a${i}`);
    if (i % 3 === 0) l.add(`a${i}r`, `u${i}`).chain(`a${i}r`, `u${i}r a${i}rr`);
    if (i % 5 === 0) l.add(`n${i}`, `a${i}`);
    tip = `a${i}`;
  }
  return l;
}

describe("graph layout at scale", () => {
  it.each([
    ["folded", new Set<NodeId>()],
    ["expanded", new Set([nid("S")])],
  ])("no two cards overlap, side leaves included (%s)", (_mode, expanded) => {
    const l = bushy(40).summary("S", ["u0", "a0", "u1", "a1"]);
    const layout = layoutGraph(l.graph("a39", "S"), { expanded, showRelics: true });
    const cards = layout.nodes.filter((n) => n.type !== "frame");
    expect(cards.length).toBeGreaterThan(100);
    for (let i = 0; i < cards.length; i += 1) {
      for (let j = i + 1; j < cards.length; j += 1) {
        const a = cards[i];
        const b = cards[j];
        if (a !== undefined && b !== undefined && overlaps(a, b)) {
          throw new Error(`${a.id} overlaps ${b.id}`);
        }
      }
    }
  });

  it("an expanded capsule keeps every other card out of its frame", () => {
    const l = bushy(30).summary("S", ["u0", "a0", "u1", "a1", "u2", "a2"]);
    const layout = layoutGraph(l.graph("a29", "S"), {
      expanded: new Set([nid("S")]),
      showRelics: true,
    });
    const frame = layout.nodes.find((n) => n.type === "frame");
    if (frame === undefined) throw new Error("no frame");
    const inside = new Set(["u0", "a0", "u1", "a1", "u2", "a2", "n0"]);
    for (const card of layout.nodes) {
      if (card === frame) continue;
      expect(overlaps(card, frame), card.id).toBe(inside.has(card.id));
    }
  });

  // Speed is measured in bench/, never asserted here; this checks a big bushy graph is
  // laid out whole, one card and one edge per node.
  it("lays out 2,000+ nodes, every one a card", () => {
    const l = bushy(700);
    const graph = l.graph("a699");
    expect(graph.nodes.length).toBeGreaterThan(2000);
    const layout = layoutGraph(graph, { expanded: NONE, showRelics: false });
    expect(layout.nodes).toHaveLength(graph.nodes.length);
    expect(layout.edges).toHaveLength(graph.nodes.length - 1);
  });

  it("a 5,000-turn chain does not overflow the stack", () => {
    const l = new TestLedger();
    let tip = "R";
    for (let i = 0; i < 2500; i += 1) {
      l.chain(tip, `u${i} a${i}`);
      tip = `a${i}`;
    }
    const layout = layoutGraph(l.graph(tip), { expanded: NONE, showRelics: false });
    expect(layout.nodes).toHaveLength(5001);
  });
});

describe("keyboard navigation (graph.md, Interaction)", () => {
  const layout = () =>
    layoutGraph(compacted().add("n1", "a3").graph("a3", "S"), {
      expanded: NONE,
      showRelics: false,
    });

  it("up goes to the predecessor, down prefers the child on HEAD's spine", () => {
    const nav = layout().nav;
    expect(navigate(nav, "a3", "up")).toBe("u3");
    expect(navigate(nav, "u3", "up")).toBe("S");
    expect(navigate(nav, "S", "up")).toBe("R");
    expect(navigate(nav, "R", "up")).toBeNull();
    // a2b (the raw fork) is the capsule's older child only by seq of its fork point; down
    // follows HEAD's branch to u3.
    expect(navigate(nav, "S", "down")).toBe("u3");
  });

  it("left and right walk siblings, then the side leaves", () => {
    const nav = layout().nav;
    const [first, second] = ["u3", "a2b"];
    expect(navigate(nav, first, "right")).toBe(second);
    expect(navigate(nav, second, "left")).toBe(first);
    expect(navigate(nav, "a3", "right")).toBe("n1");
    expect(navigate(nav, "n1", "left")).toBe("a3");
    expect(navigate(nav, "n1", "up")).toBe("a3");
  });

  it("the expanded capsule's frame sits between the segment's parent and its first node", () => {
    const l = compacted();
    const nav = layoutGraph(l.graph("a3", "S"), {
      expanded: new Set([nid("S")]),
      showRelics: false,
    }).nav;
    expect(navigate(nav, "S", "up")).toBe("R");
    expect(navigate(nav, "S", "down")).toBe("u1");
    expect(navigate(nav, "u2", "down")).toBe("a2");
  });
});
