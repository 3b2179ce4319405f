import { describe, expect, it } from "vitest";
import { buildGraph } from "@/lib/engine/build-graph";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import { readsOf } from "@/lib/engine/reads-of";
import { id, ids, ledger } from "./helpers";

function compacted() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4");
  l.summary("S", ["u1", "a1", "u2", "a2"]);
  return l;
}

describe("provenance (compaction.md §7.2)", () => {
  it("[R40] a call's reads are the rendering's ids in prompt order, ROOT included", () => {
    const l = compacted();
    const rendering = l.render("u4", "S");
    expect(readsOf(rendering)).toEqual(ids("R", "S", "u3", "a3", "u4"));
    expect(readsOf(rendering)).not.toContain("u1");
    expect(readsOf(l.render("u4"))).toEqual(ids("R", "u1", "a1", "u2", "a2", "u3", "a3", "u4"));
    // A copy: stamping reads cannot alias the rendering.
    expect(readsOf(rendering)).not.toBe(rendering.ids);
  });

  it("[R41] a read summary makes the capsule glow, not the nodes it stands in for", () => {
    const l = compacted();
    l.add("a4", "assistant", "u4");
    const graph = buildGraph(l.session("a4", "S"), l.nodes);
    const marks = provenanceMarks(readsOf(l.render("u4", "S")), graph);
    expect(marks.capsuleGlows).toBe(true);
    expect([...marks.glowing]).toEqual(ids("R", "S", "u3", "a3", "u4"));
    for (const covered of ["u1", "a1", "u2", "a2"])
      expect(marks.glowing.has(id(covered))).toBe(false);
    expect(marks.insideCapsule).toEqual([]);
  });

  it("[R41] raw reads that a later compaction folded are reported inside the capsule", () => {
    const l = compacted();
    const graph = buildGraph(l.session("u4", "S"), l.nodes);
    // A reply written before S existed read the raw turns; one of them was since deleted.
    const marks = provenanceMarks(ids("R", "u1", "a1", "u2", "gone"), graph);
    expect(marks.capsuleGlows).toBe(false);
    expect([...marks.glowing]).toEqual(ids("R", "u1", "a1", "u2"));
    expect(marks.insideCapsule).toEqual(ids("u1", "a1", "u2"));
  });
});
