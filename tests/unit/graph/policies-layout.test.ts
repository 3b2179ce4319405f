import { describe, expect, it } from "vitest";
import type { FlowEdge, FlowNode, GraphLayout } from "@/components/graph/flow-types";
import { layoutGraph } from "@/components/graph/layout";
import { buildGraph, type GraphView } from "@/lib/engine/build-graph";
import type { NodeId } from "@/lib/engine/ids";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import { nid, TestLedger } from "./ledger";

/**
 * [R249] The picture under an active set: one capsule per active summary on the trunk, and a
 * nested capsule that unfolds to the capsules of the summaries it names, which unfold to the
 * originals.
 */

/** Trunk u1..a5; S1 = u1 a1, S2 = u2..a3 (hung off a1), a fork from a2; N nests S1 and S2. */
function ledger(): TestLedger {
  const l = new TestLedger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4 u5 a5").chain("a2", "u3b a3b");
  l.summary("S1", ["u1", "a1"]);
  l.summary("S2", ["u2", "a2", "u3", "a3"], "a1");
  l.add("SN", "R", {
    content: "Summary SN: of summaries",
    metadata: { covers_ids: [nid("S1"), nid("S2")], covers_summaries: true },
  });
  return l;
}

function view(l: TestLedger, set: readonly string[], head = "a5"): GraphView {
  return buildGraph({ ...l.session(head), meta: { _active_summary_ids: set.map(nid) } }, l.nodes);
}

const layout = (v: GraphView, ...expanded: string[]) =>
  layoutGraph(v, { expanded: new Set<NodeId>(expanded.map(nid)), showRelics: false });

function node(l: GraphLayout, id: string): FlowNode {
  const found = l.nodes.find((n) => n.id === id);
  if (found === undefined) throw new Error(`no node ${id}`);
  return found;
}
const has = (l: GraphLayout, id: string) => l.nodes.some((n) => n.id === id);
const edgesTo = (l: GraphLayout, id: string): FlowEdge[] => l.edges.filter((e) => e.target === id);
const ofType = (l: GraphLayout, type: FlowNode["type"]) =>
  l.nodes.filter((n) => n.type === type).map((n) => n.id);

/** Whether box `a` lies inside box `b`. */
function inside(a: FlowNode, b: FlowNode): boolean {
  return (
    a.position.x >= b.position.x &&
    a.position.y >= b.position.y &&
    a.position.x + a.width <= b.position.x + b.width &&
    a.position.y + a.height <= b.position.y + b.height
  );
}

describe("[R249] capsules under an active set", () => {
  it("[R249] segmented: two capsules on one trunk, the second below the first, the kept tail below both", () => {
    const l = layout(view(ledger(), ["S1", "S2"]));
    expect(ofType(l, "capsule")).toEqual(["S1", "S2"]);
    for (const id of ["u1", "a1", "u2", "a2", "u3", "a3", "SN"]) expect(has(l, id)).toBe(false);
    expect(edgesTo(l, "S1")).toMatchObject([{ source: "R", data: { variant: "tree" } }]);
    expect(edgesTo(l, "S2")).toMatchObject([{ source: "S1", data: { variant: "tree" } }]);
    expect(edgesTo(l, "u4")).toMatchObject([{ source: "S2", data: { variant: "tree" } }]);
    expect(node(l, "S1").position.y).toBeLessThan(node(l, "S2").position.y);
    expect(node(l, "S2").position.y).toBeLessThan(node(l, "u4").position.y);
    expect(node(l, "S1").data).toMatchObject({ turns: 2, summaries: 0, spine: true });
    expect(node(l, "S2").data).toMatchObject({ turns: 4, summaries: 0, spine: true });
    // The fork from inside S2's segment leaves S2's port dashed: it reads those turns raw.
    expect(edgesTo(l, "u3b")).toMatchObject([
      { source: "S2", sourceHandle: "fork-1", data: { variant: "raw" } },
    ]);
  });

  it("[R249] segmented: unfolding one capsule draws its originals in a frame; the other stays folded", () => {
    const l = layout(view(ledger(), ["S1", "S2"]), "S2");
    expect(ofType(l, "capsule")).toEqual(["S1"]);
    expect(ofType(l, "frame")).toEqual(["S2"]);
    for (const id of ["u2", "a2", "u3", "a3"]) {
      expect(inside(node(l, id), node(l, "S2"))).toBe(true);
      expect(node(l, id).data).toMatchObject({ covered: true });
    }
    expect(has(l, "u1")).toBe(false);
    expect(edgesTo(l, "u2")).toMatchObject([{ source: "S1" }]);
    expect(edgesTo(l, "u4")).toMatchObject([{ source: "a3" }]);
    expect(edgesTo(l, "u3b")).toMatchObject([{ source: "a2", data: { variant: "raw" } }]);
    expect(inside(node(l, "u4"), node(l, "S2"))).toBe(false);
  });

  it("[R249] nested: one capsule for the whole stretch, then its summaries' capsules, then the originals", () => {
    const v = view(ledger(), ["SN"]);
    // Step 0: folded, one capsule standing for six turns, naming two summaries.
    const folded = layout(v);
    expect(ofType(folded, "capsule")).toEqual(["SN"]);
    expect(node(folded, "SN").data).toMatchObject({ turns: 6, summaries: 2 });
    for (const id of ["S1", "S2", "u1", "a3"]) expect(has(folded, id)).toBe(false);
    expect(edgesTo(folded, "u4")).toMatchObject([{ source: "SN" }]);
    expect(edgesTo(folded, "u3b")).toMatchObject([
      { source: "SN", sourceHandle: "fork-3", data: { variant: "raw" } },
    ]);

    // Step 1: SN unfolds to the capsules of S1 and S2, inside its frame, no turn yet.
    const one = layout(v, "SN");
    expect(ofType(one, "frame")).toEqual(["SN"]);
    expect(ofType(one, "capsule")).toEqual(["S1", "S2"]);
    for (const id of ["S1", "S2"]) expect(inside(node(one, id), node(one, "SN"))).toBe(true);
    for (const id of ["u1", "a1", "u2", "a3"]) expect(has(one, id)).toBe(false);
    expect(edgesTo(one, "S1")).toMatchObject([{ source: "R" }]);
    expect(edgesTo(one, "S2")).toMatchObject([{ source: "S1" }]);
    expect(edgesTo(one, "u4")).toMatchObject([{ source: "S2" }]);
    expect(inside(node(one, "u4"), node(one, "SN"))).toBe(false);

    // Step 2: S1 unfolds inside SN's frame to its originals; S2 stays a capsule.
    const two = layout(v, "SN", "S1");
    expect(ofType(two, "frame")).toEqual(["SN", "S1"]);
    expect(ofType(two, "capsule")).toEqual(["S2"]);
    for (const id of ["u1", "a1"]) {
      expect(inside(node(two, id), node(two, "S1"))).toBe(true);
      expect(inside(node(two, id), node(two, "SN"))).toBe(true);
    }
    expect(inside(node(two, "S1"), node(two, "SN"))).toBe(true);
    expect(inside(node(two, "S2"), node(two, "SN"))).toBe(true);
    expect(inside(node(two, "S2"), node(two, "S1"))).toBe(false);
    expect(edgesTo(two, "u1")).toMatchObject([{ source: "R" }]);
    expect(edgesTo(two, "S2")).toMatchObject([{ source: "a1" }]);
    // No two cards overlap unless one is a frame holding the other.
    const cards = two.nodes.filter((n) => n.type !== "frame");
    for (const a of cards) {
      for (const b of cards) {
        if (a === b) continue;
        const apart =
          a.position.x + a.width <= b.position.x ||
          b.position.x + b.width <= a.position.x ||
          a.position.y + a.height <= b.position.y ||
          b.position.y + b.height <= a.position.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
    // The keyboard reaches into both frames.
    expect(two.nav.get("SN")?.down).toBe("S1");
    expect(two.nav.get("S1")?.down).toBe("u1");
  });

  it("[R249] a reply that read an inner summary lights the nested capsule folding it, and no other", () => {
    const l = ledger().chain("a5", "u6 a6");
    const v = view(l, ["S1", "S2"], "a6");
    const marks = provenanceMarks([nid("R"), nid("S1"), nid("u2"), nid("a2")], v);
    const drawn = layoutGraph(v, { expanded: new Set(), showRelics: false, marks });
    expect(node(drawn, "S1").data).toMatchObject({ glow: "glow" });
    expect(node(drawn, "S2").data).toMatchObject({ glow: "dim", readsInside: 2 });
    const nested = view(l, ["SN"], "a6");
    const nestedMarks = provenanceMarks([nid("R"), nid("S1"), nid("u2")], nested);
    const one = layoutGraph(nested, { expanded: new Set(), showRelics: false, marks: nestedMarks });
    expect(node(one, "SN").data).toMatchObject({ glow: "glow", readsInside: 2 });
  });
});
