import { describe, expect, it } from "vitest";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import type { NodeId } from "@/lib/engine/ids";
import type { FlowEdge, FlowNode, GraphLayout } from "@/components/graph/flow-types";
import { layoutGraph } from "@/components/graph/layout";
import { RAW_LABEL } from "@/components/graph/flow-elements";
import { compacted, nid, TestLedger } from "./ledger";

const FOLDED = { expanded: new Set<NodeId>(), showRelics: false };
const EXPANDED = { expanded: new Set([nid("S")]), showRelics: false };

function node(layout: GraphLayout, id: string): FlowNode {
  const found = layout.nodes.find((n) => n.id === id);
  if (found === undefined) throw new Error(`no node ${id}`);
  return found;
}

function edgeTo(layout: GraphLayout, target: string): FlowEdge {
  const found = layout.edges.filter((e) => e.target === target);
  expect(found).toHaveLength(1);
  const [only] = found;
  if (only === undefined) throw new Error(`no edge to ${target}`);
  return only;
}

const positions = (layout: GraphLayout) =>
  Object.fromEntries(layout.nodes.map((n) => [n.id, n.position]));

describe("graph layout (graph.md, Layout)", () => {
  it("is a function of the ledger: the same positions whatever HEAD is", () => {
    const l = compacted();
    const onTail = layoutGraph(l.graph("a3", "S"), FOLDED);
    const onRawFork = layoutGraph(l.graph("a2b", "S"), FOLDED);
    const headless = layoutGraph(l.graph(null, "S"), FOLDED);
    expect(positions(onRawFork)).toEqual(positions(onTail));
    expect(positions(headless)).toEqual(positions(onTail));
    expect(node(onTail, "a3").data).toMatchObject({ head: true });
    expect(node(onRawFork, "a3").data).toMatchObject({ head: false });
  });

  it("draws ROOT on top, edges predecessor → node, siblings oldest (lowest seq) left", () => {
    // Ids chosen so that id order and seq order disagree.
    const l = new TestLedger().chain("R", "uz").add("ay", "uz").add("ab", "uz").add("am", "uz");
    const layout = layoutGraph(l.graph("ab"), FOLDED);
    const xs = ["ay", "ab", "am"].map((id) => node(layout, id).position.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(new Set(xs).size).toBe(3);
    expect(node(layout, "R").position.y).toBeLessThan(node(layout, "uz").position.y);
    expect(edgeTo(layout, "ab")).toMatchObject({ source: "uz", target: "ab" });
    expect(node(layout, "uz").data).toMatchObject({ forks: 3 });
    expect(node(layout, "ab").data).toMatchObject({ sibling: "2/3" });
  });

  it("flags HEAD's spine on nodes and edges, and marks HEAD itself", () => {
    const l = new TestLedger().chain("R", "u1 a1").add("a1b", "u1");
    const layout = layoutGraph(l.graph("a1b"), FOLDED);
    expect(edgeTo(layout, "u1").data.spine).toBe(true);
    expect(edgeTo(layout, "a1b").data.spine).toBe(true);
    expect(edgeTo(layout, "a1").data.spine).toBe(false);
    expect(node(layout, "a1b").data).toMatchObject({ head: true, spine: true });
    expect(node(layout, "a1").data).toMatchObject({ head: false, spine: false });
  });
});

describe("the capsule (graph.md, The capsule)", () => {
  it("folded: one capsule replaces the covered nodes, hung from the summary's predecessor", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), FOLDED);
    for (const id of ["u1", "a1", "u2", "a2"]) {
      expect(layout.nodes.some((n) => n.id === id)).toBe(false);
      expect(layout.edges.some((e) => e.source === id || e.target === id)).toBe(false);
    }
    const capsules = layout.nodes.filter((n) => n.type === "capsule");
    expect(capsules.map((n) => n.id)).toEqual(["S"]);
    expect(node(layout, "S").data).toMatchObject({
      turns: 4,
      text: "Summary S: the user greeted",
      spine: true,
    });
    expect(edgeTo(layout, "S")).toMatchObject({ source: "R", data: { variant: "tree" } });
    expect(layout.nodes.some((n) => n.type === "frame")).toBe(false);
  });

  it("the kept tail continues below the capsule with a solid edge", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), FOLDED);
    const tail = edgeTo(layout, "u3");
    expect(tail).toMatchObject({ source: "S", sourceHandle: "out", data: { variant: "tree" } });
    expect(tail.label).toBeUndefined();
    expect(node(layout, "u3").position.y).toBeGreaterThan(node(layout, "S").position.y);
    expect(edgeTo(layout, "a3").source).toBe("u3");
  });

  it("a fork from inside the segment leaves the capsule's port dashed, as raw context", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), FOLDED);
    const raw = edgeTo(layout, "a2b");
    // a2b forks from u2, position 2 of the segment u1 a1 u2 a2.
    expect(raw).toMatchObject({
      source: "S",
      sourceHandle: "fork-2",
      label: RAW_LABEL,
      data: { variant: "raw" },
    });
    expect(node(layout, "S").data).toMatchObject({ ports: [{ id: "fork-2", at: 2.5 / 4 }] });
  });

  it("expanded: the covered nodes are drawn in place inside a frame, with no capsule", () => {
    const l = compacted();
    const layout = layoutGraph(l.graph("a3", "S"), EXPANDED);
    expect(layout.nodes.some((n) => n.type === "capsule")).toBe(false);
    const [frame, ...others] = layout.nodes.filter((n) => n.type === "frame");
    expect(others).toHaveLength(0);
    if (frame === undefined) throw new Error("no frame");
    expect(frame.data).toMatchObject({ summaryId: "S", text: "Summary S: the user greeted" });
    for (const id of ["u1", "a1", "u2", "a2"]) {
      const card = node(layout, id);
      expect(card.data).toMatchObject({ covered: true });
      expect(card.position.x).toBeGreaterThanOrEqual(frame.position.x);
      expect(card.position.y).toBeGreaterThanOrEqual(frame.position.y);
      expect(card.position.x + card.width).toBeLessThanOrEqual(frame.position.x + frame.width);
      expect(card.position.y + card.height).toBeLessThanOrEqual(frame.position.y + frame.height);
    }
    expect(edgeTo(layout, "u1").source).toBe("R");
    expect(edgeTo(layout, "u3").source).toBe("a2");
    expect(layout.nodes[0]?.type).toBe("frame");
  });

  it("expanded: nothing that is not covered is drawn inside the frame", () => {
    const l = compacted().add("u2c", "a1").add("uX", "R");
    const layout = layoutGraph(l.graph("a3", "S"), EXPANDED);
    const frame = node(layout, "S");
    const bottom = frame.position.y + frame.height;
    for (const id of ["u3", "a3", "a2b", "u2c", "uX"]) {
      const card = node(layout, id);
      expect(card.data).toMatchObject({ covered: false });
      const clear =
        card.position.y >= bottom ||
        card.position.x >= frame.position.x + frame.width ||
        card.position.x + card.width <= frame.position.x;
      expect(clear, `${id} is clear of the frame`).toBe(true);
    }
    // The branches that leave the segment hang below the frame, as below the capsule.
    for (const id of ["u3", "a2b", "u2c"])
      expect(node(layout, id).position.y).toBeGreaterThan(bottom);
  });

  it("expanded: a raw fork still leaves dashed, from its real predecessor, sideways", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), EXPANDED);
    // Still raw: expanding changes the picture, not which branches the summary serves.
    expect(edgeTo(layout, "a2b")).toMatchObject({
      source: "u2",
      sourceHandle: "side",
      label: RAW_LABEL,
      data: { variant: "raw" },
    });
    expect(edgeTo(layout, "u3")).toMatchObject({ sourceHandle: "out", data: { variant: "tree" } });
  });

  it("expanding changes only the picture: HEAD flags stay, nothing else is added", () => {
    const l = compacted();
    const folded = layoutGraph(l.graph("a3", "S"), FOLDED);
    const expanded = layoutGraph(l.graph("a3", "S"), EXPANDED);
    const ids = (layout: GraphLayout) => layout.nodes.map((n) => n.id).sort();
    expect(ids(expanded)).toEqual([...ids(folded), "a1", "a2", "u1", "u2"].sort());
    expect(node(expanded, "a3").data).toMatchObject({ head: true });
  });

  it("HEAD inside the folded segment marks the capsule; its spine skips the capsule's tail", () => {
    const layout = layoutGraph(compacted().graph("a1", "S"), FOLDED);
    expect(node(layout, "S").data).toMatchObject({ head: true, spine: true });
    expect(edgeTo(layout, "u3").data.spine).toBe(false);
  });
});

describe("relics and side leaves (graph.md, The capsule)", () => {
  it("relics are hidden by default", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), FOLDED);
    expect(layout.nodes.some((n) => n.id === "S0")).toBe(false);
    expect(layout.edges.some((e) => e.target === "S0")).toBe(false);
  });

  it("with showRelics a relic is a faded side node beside its predecessor, marked superseded", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), { ...FOLDED, showRelics: true });
    const relic = node(layout, "S0");
    const root = node(layout, "R");
    expect(relic).toMatchObject({ type: "side", data: { kind: "relic" } });
    expect(relic.position.x).toBeGreaterThanOrEqual(root.position.x + root.width);
    expect(relic.position.y).toBeGreaterThanOrEqual(root.position.y);
    expect(relic.position.y).toBeLessThan(root.position.y + root.height);
    expect(edgeTo(layout, "S0")).toMatchObject({
      source: "R",
      sourceHandle: "side",
      data: { variant: "side", faded: true, spine: false },
    });
  });

  it("notices are side nodes; one hanging off a folded node hangs off the capsule", () => {
    const l = compacted().add("n1", "a1").add("n2", "a3");
    const layout = layoutGraph(l.graph("a3", "S"), FOLDED);
    expect(node(layout, "n1")).toMatchObject({ type: "side", data: { kind: "notice" } });
    expect(edgeTo(layout, "n1").source).toBe("S");
    expect(edgeTo(layout, "n2")).toMatchObject({ source: "a3", data: { variant: "side" } });
  });

  it("a spawned sub-agent branch hangs off its caller with its own edge style", () => {
    const l = new TestLedger()
      .chain("R", "u1 a1 u2")
      .add("uT", "a1", { callerId: "a1" })
      .add("aT", "uT", { callerId: "a1" });
    const layout = layoutGraph(l.graph("u2"), FOLDED);
    expect(edgeTo(layout, "uT")).toMatchObject({ source: "a1", data: { variant: "spawn" } });
    expect(node(layout, "uT").data).toMatchObject({ spawned: true });
    // Inside the branch the edges are ordinary ones.
    expect(edgeTo(layout, "aT")).toMatchObject({ source: "uT", data: { variant: "tree" } });
  });
});

describe("provenance marking (graph.md, Provenance marking)", () => {
  it("reads that include the summary make the capsule glow, not the nodes it stands in for", () => {
    const l = compacted();
    const graph = l.graph("a3", "S");
    const marks = provenanceMarks([nid("R"), nid("S"), nid("u3")], graph);
    const layout = layoutGraph(graph, { ...EXPANDED, expanded: new Set(), marks });
    expect(node(layout, "S").data).toMatchObject({ glow: "glow" });
    expect(node(layout, "u3").data).toMatchObject({ glow: "glow" });
    expect(node(layout, "a3").data).toMatchObject({ glow: "dim" });
    expect(node(layout, "a2b").data).toMatchObject({ glow: "dim" });
    expect(edgeTo(layout, "a3").data.dim).toBe(true);
    expect(edgeTo(layout, "u3").data.dim).toBe(false);

    const expanded = layoutGraph(graph, { ...EXPANDED, marks });
    expect(node(expanded, "u1").data).toMatchObject({ glow: "dim" });
    expect(node(expanded, "S").data).toMatchObject({ glow: "glow" });
  });

  it("a raw branch's call read covered turns, not the summary: the capsule dims", () => {
    const l = compacted();
    const graph = l.graph("a2b", "S");
    const marks = provenanceMarks([nid("R"), nid("u1"), nid("a1"), nid("u2")], graph);
    const folded = layoutGraph(graph, { ...FOLDED, marks });
    expect(node(folded, "S").data).toMatchObject({ glow: "dim", readsInside: 3 });
    expect(node(folded, "R").data).toMatchObject({ glow: "glow" });
    // Unfolded, the turns it really read glow in place.
    const expanded = layoutGraph(graph, { ...EXPANDED, marks });
    expect(node(expanded, "S").data).toMatchObject({ glow: "dim" });
    expect(node(expanded, "u2").data).toMatchObject({ glow: "glow" });
    expect(node(expanded, "a2").data).toMatchObject({ glow: "dim" });
  });

  it("without marks nothing glows or dims", () => {
    const layout = layoutGraph(compacted().graph("a3", "S"), FOLDED);
    for (const n of layout.nodes) expect(n.data.glow).toBeNull();
    for (const e of layout.edges) expect(e.data.dim).toBe(false);
  });
});
