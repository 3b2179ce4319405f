import { describe, expect, it } from "vitest";
import { buildGraph, type GraphRow } from "@/lib/engine/build-graph";
import { asNodeId } from "@/lib/engine/ids";
import { codeOf, id, ledger } from "./helpers";

/**
 * R → u1 → a1 (calls c1) → t1 → a1f → u2 → a2 → u3 → a3 → u4 → a4 (HEAD's branch).
 * a1 spawned a task branch uT → aT, and aT spawned uN → aN. Forks from inside the covered
 * range: a2b (a dead retry of a2) and u2c → a2c. S covers u1..a2; S0 is a relic.
 */
function world() {
  const l = ledger().chain("R", "u1");
  l.add("a1", "assistant", "u1", { toolCalls: ["c1"] });
  l.add("t1", "tool", "a1", { toolCallId: "c1", callerId: "a1" });
  l.chain("t1", "a1f u2 a2 u3 a3 u4 a4");
  l.add("uT", "user", "a1", { callerId: "a1" });
  l.chain("uT", "aT");
  l.add("uN", "user", "aT", { callerId: "aT" });
  l.chain("uN", "aN");
  l.chain("u2", "a2b").chain("a1f", "u2c a2c");
  l.summary("S0", ["u1", "a1", "t1", "a1f"]);
  l.summary("S", ["u1", "a1", "t1", "a1f", "u2", "a2"]);
  return l;
}

const COVERED = ["u1", "a1", "t1", "a1f", "u2", "a2", "uT", "aT", "uN", "aN"];

function rows(graph: { nodes: readonly GraphRow[] }) {
  return new Map(graph.nodes.map((row) => [row.id as string, row]));
}

describe("graph rows (compaction.md §6)", () => {
  it("[R32] every node is one row, in seq order, verbatim plus onHeadSpine", () => {
    const l = world();
    const graph = buildGraph(l.session("a4", "S"), l.nodes);
    expect(graph.sessionId).toBe("s1");
    expect(graph.headId).toBe("a4");
    expect(graph.nodes.map((r) => r.id)).toEqual(l.nodes.map((n) => n.id));
    const byId = rows(graph);
    for (const node of l.nodes) expect(byId.get(node.id)).toMatchObject(node);
    const spine = graph.nodes.filter((r) => r.onHeadSpine).map((r) => r.id);
    expect(spine).toEqual(ids("R u1 a1 t1 a1f u2 a2 u3 a3 u4 a4"));
    expect(byId.get("S")?.onHeadSpine).toBe(false);
  });

  it("[R32] side leaves are never on HEAD's spine; a headless session has no spine", () => {
    const l = world();
    l.add("n1", "notice", "a4");
    const graph = buildGraph(l.session("a4", "S"), l.nodes);
    expect(rows(graph).get("n1")?.onHeadSpine).toBe(false);
    const headless = buildGraph(l.session(null, "S"), l.nodes);
    expect(headless.nodes.some((r) => r.onHeadSpine)).toBe(false);
    expect(codeOf(() => buildGraph(l.session("ghost", "S"), l.nodes))).toBe("invalid_ledger");
  });

  it("[R33] the active row's covers_ids adds the caller subtrees of covered turns", () => {
    const l = world();
    const graph = buildGraph(l.session("a4", "S"), l.nodes);
    expect(graph.activeSummaryId).toBe("S");
    expect(rows(graph).get("S")?.covers_ids).toEqual(ids(...COVERED));
  });

  it("[R33] ids that no longer exist are dropped; no summary id ever appears", () => {
    const l = world();
    l.summary("S2", ["u1", "gone", "a1", "S0"]);
    const row = rows(buildGraph(l.session("a4", "S2"), l.nodes)).get("S2");
    expect(row?.covers_ids).toEqual(ids("u1", "a1", "uT", "aT", "uN", "aN"));
  });

  it("[R33] a tool result outside the segment never drags the kept tail into the capsule", () => {
    const l = world();
    l.summary("S3", ["u1", "a1"]);
    const covers = rows(buildGraph(l.session("a4", "S3"), l.nodes)).get("S3")?.covers_ids;
    expect(covers).toEqual(ids("u1", "a1", "uT", "aT", "uN", "aN"));
  });

  it("[R34] superseded summaries are flagged and carry no covers_ids", () => {
    const graph = rows(buildGraph(world().session("a4", "S"), world().nodes));
    const relic = graph.get("S0");
    expect(relic?.superseded_summary).toBe(true);
    expect(relic).not.toHaveProperty("covers_ids");
    expect(relic).not.toHaveProperty("tokensSaved");
    expect(graph.get("S")).not.toHaveProperty("superseded_summary");
    for (const key of ["u1", "a4", "R"]) {
      expect(graph.get(key)).not.toHaveProperty("covers_ids");
      expect(graph.get(key)).not.toHaveProperty("superseded_summary");
    }
  });

  it("[R35] coverage is the same whatever HEAD is and whatever the seqs are", () => {
    const l = world();
    const coverage = (graph: { nodes: readonly GraphRow[] }) =>
      graph.nodes.map((r) => ({
        id: r.id,
        covers: r.covers_ids === undefined ? null : [...r.covers_ids].sort(),
        foldedIn: r.foldedIn,
        rawFork: r.rawFork,
        relic: r.superseded_summary ?? false,
      }));
    const atTail = coverage(buildGraph(l.session("a4", "S"), l.nodes));
    const atFork = coverage(buildGraph(l.session("a2c", "S"), l.nodes));
    const atRoot = coverage(buildGraph(l.session("R", "S"), l.nodes));
    expect(atFork).toEqual(atTail);
    expect(atRoot).toEqual(atTail);
    const n = l.nodes.length;
    const reseq = l.nodes.map((node) => ({ ...node, seq: ((node.seq * 7) % n) + 1000 }));
    const reordered = coverage(buildGraph(l.session("a4", "S"), reseq));
    const byId = (xs: typeof atTail) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(reordered)).toEqual(byId(atTail));
  });

  it("[R36] foldedIn is exactly where a rendering admits the active summary", () => {
    const l = world();
    const graph = buildGraph(l.session("a4", "S"), l.nodes);
    const carrying = graph.nodes.filter((r) => r.foldedIn).map((r) => r.id);
    expect(carrying).toEqual(ids("a2 u3 a3 u4 a4"));
    for (const row of graph.nodes) {
      if (row.kind === "summary") continue;
      expect(l.render(row.id, "S").ids.includes(id("S"))).toBe(row.foldedIn);
    }
  });

  it("[R37] rawFork marks the first node of each branch leaving the covered segment", () => {
    const l = world();
    const graph = buildGraph(l.session("a4", "S"), l.nodes);
    expect(graph.nodes.filter((r) => r.rawFork).map((r) => r.id)).toEqual(ids("a2b u2c"));
    for (const raw of ["a2b", "a2c"]) {
      expect(l.render(raw, "S").ids).not.toContain("S");
    }
  });

  it("[R38] child and sibling counts count alternatives only", () => {
    const l = world();
    const byId = rows(buildGraph(l.session("a4", "S"), l.nodes));
    expect(byId.get("R")?.childCount).toBe(1);
    expect(byId.get("a1")?.childCount).toBe(1);
    expect(byId.get("u2")?.childCount).toBe(2);
    expect(byId.get("a1f")?.childCount).toBe(2);
    expect(byId.get("a4")?.childCount).toBe(0);
    expect(byId.get("a2")).toMatchObject({ siblingIndex: 0, siblingCount: 2 });
    expect(byId.get("a2b")).toMatchObject({ siblingIndex: 1, siblingCount: 2 });
    expect(byId.get("u2c")).toMatchObject({ siblingIndex: 1, siblingCount: 2 });
    expect(byId.get("uT")).toMatchObject({ siblingIndex: 0, siblingCount: 1 });
    expect(byId.get("S")).toMatchObject({ siblingIndex: 0, siblingCount: 1 });
    expect(byId.get("R")).toMatchObject({ siblingIndex: 0, siblingCount: 1 });
  });

  it("[R38] the active row reports the tokens its substitution saves", () => {
    const byId = rows(buildGraph(world().session("a4", "S"), world().nodes));
    // Six covered turns at 10 + 4 tokens; S costs 10 + 20 (prefix) + 4.
    expect(byId.get("S")?.tokensSaved).toBe(6 * 14 - 34);
  });

  it("[R39] with no existing active summary nothing is folded and every summary is a relic", () => {
    const l = world();
    for (const graph of [
      buildGraph(l.session("a4", "ghost"), l.nodes),
      buildGraph(l.session("a4"), l.nodes),
    ]) {
      expect(graph.activeSummaryId).toBeNull();
      expect(graph.nodes.some((r) => r.covers_ids !== undefined)).toBe(false);
      expect(graph.nodes.some((r) => r.foldedIn || r.rawFork)).toBe(false);
      expect(graph.nodes.filter((r) => r.superseded_summary).map((r) => r.id)).toEqual(
        ids("S0", "S"),
      );
    }
  });

  it("[R32] nodes of another session are refused", () => {
    const l = world();
    const other = { ...l.get("u1"), id: id("x"), sessionId: "s2" as never };
    expect(codeOf(() => buildGraph(l.session("a4", "S"), [...l.nodes, other]))).toBe(
      "invalid_ledger",
    );
  });
});

function ids(...specs: string[]) {
  return specs.flatMap((s) => s.split(" ")).map(asNodeId);
}
