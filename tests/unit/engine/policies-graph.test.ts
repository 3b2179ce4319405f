import { describe, expect, it } from "vitest";
import { activeSummaries } from "@/lib/engine/active-summaries";
import { buildGraph } from "@/lib/engine/build-graph";
import { asNodeId } from "@/lib/engine/ids";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import { expandReadsRef, readsRefOfRendering } from "@/lib/engine/reads-ref";
import { renderContext } from "@/lib/engine/render-context";
import { anchorOf } from "@/lib/engine/reveal-target";
import { sentIds } from "@/lib/engine/sent-messages";
import type { SessionMeta } from "@/lib/engine/types";
import { id, ledger } from "./helpers";
import { innerOf } from "./policy-session";

const set = (...ids: string[]): SessionMeta => ({ _active_summary_ids: ids.map(asNodeId) });

/** Trunk u1..a5, S1 = u1 a1, S2 = u2..a3, a fork from a2, N nesting S1 and S2. */
function nestedLedger() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4 u5 a5").chain("a2", "u3b a3b");
  l.summary("S1", ["u1", "a1"]);
  l.summary("S2", ["u2", "a2", "u3", "a3"], "a1");
  l.add("N", "summary", "R", {
    content: "nested",
    metadata: { covers_ids: [id("S1"), id("S2")], covers_summaries: true },
  });
  return l;
}

describe("the graph under an active set (compaction.md §6, per capsule)", () => {
  it("[R249] one capsule per active summary: each row carries its own covers_ids, and the view lists the set", () => {
    const l = nestedLedger();
    const graph = buildGraph(l.session("a5", undefined, set("S1", "S2")), l.nodes);
    expect(graph.activeSummaryIds).toEqual(["S1", "S2"]);
    expect(graph.activeSummaryId).toBe("S2");
    const row = (n: string) => graph.nodes.find((r) => r.id === n);
    expect(row("S1")?.covers_ids).toEqual(["u1", "a1"]);
    expect(row("S2")?.covers_ids).toEqual(["u2", "a2", "u3", "a3"]);
    expect(row("N")?.superseded_summary).toBe(true);
    // The fork leaves S2's segment (its edge is the dashed "raw context" one) but carries S1.
    expect(row("u3b")).toMatchObject({ rawFork: true, foldedIn: true });
    expect(row("a1")?.foldedIn).toBe(true);
    expect(row("u1")?.foldedIn).toBe(false);
    // a1 → u2 crosses from S1 into S2 on the branch that carries both: no raw fork.
    expect(row("u2")?.rawFork).toBe(false);
    expect(row("u4")?.rawFork).toBe(false);
  });

  it("[R249] a nested capsule folds the capsules of the summaries it names, and they fold the originals", () => {
    const l = nestedLedger();
    const graph = buildGraph(l.session("a5", undefined, set("N")), l.nodes);
    const row = (n: string) => graph.nodes.find((r) => r.id === n);
    expect(graph.activeSummaryIds).toEqual(["N"]);
    expect(row("N")?.covers_ids).toEqual(["S1", "S2"]);
    expect(row("N")?.nestedIn).toBeUndefined();
    expect(row("S1")).toMatchObject({ covers_ids: ["u1", "a1"], nestedIn: "N" });
    expect(row("S2")).toMatchObject({ covers_ids: ["u2", "a2", "u3", "a3"], nestedIn: "N" });
    expect(row("S1")?.superseded_summary).toBeUndefined();
    // N saves what its turns cost minus what it costs.
    expect(row("N")?.tokensSaved).toBe(6 * 14 - 34);
  });

  it("[R249] capsules fold exactly where their summary renders: foldedIn is true iff a rendering from the node admits a summary", () => {
    const l = nestedLedger();
    for (const meta of [set("S1", "S2"), set("N"), { _last_summary_id: id("S2") }]) {
      const index = l.index();
      const active = activeSummaries(meta, index.get);
      const graph = buildGraph(l.session("a5", undefined, meta), l.nodes);
      for (const row of graph.nodes) {
        if (row.kind === "summary") continue;
        const rendered = renderContext({
          spine: l.spine(row.id),
          activeSummaries: active,
          innerSummaries: innerOf(l, active),
        });
        expect([row.id, row.foldedIn]).toEqual([
          row.id,
          rendered.messages.some((m) => m.kind === "summary"),
        ]);
      }
    }
  });

  it("[R249] provenance marks: a read inner summary glows inside the nested capsule", () => {
    const l = nestedLedger();
    const graph = buildGraph(l.session("a5", undefined, set("N")), l.nodes);
    const marks = provenanceMarks([id("R"), id("S1"), id("u3b")], graph);
    expect(marks.capsuleGlows).toBe(true);
    expect(marks.insideCapsule).toEqual(["S1"]);
  });

  it("[R249] a nested summary opens in the transcript at the last turn under it", () => {
    const l = nestedLedger();
    expect(anchorOf(l.index(), l.get("N"))?.id).toBe("a3");
  });
});

describe("provenance under every policy (compaction.md §7.2)", () => {
  it("[R248] the reads reference names the summaries a rendering admitted, and expands to exactly what was sent", () => {
    const l = nestedLedger();
    const index = l.index();
    for (const meta of [set("S1", "S2"), set("N"), { _last_summary_id: id("S2") }, {}]) {
      const active = activeSummaries(meta, index.get);
      for (const head of ["a5", "a3b", "a1", "u1", "a3"]) {
        const rendering = renderContext({
          spine: l.spine(head),
          activeSummaries: active,
          innerSummaries: innerOf(l, active),
        });
        const ref = readsRefOfRendering(rendering, active);
        expect(expandReadsRef(ref, index.get)).toEqual(sentIds(rendering));
      }
    }
    // The rolling form is unchanged: the single active summary, admitted or not.
    const rolling = activeSummaries({ _last_summary_id: id("S2") }, index.get);
    const raw = renderContext({ spine: l.spine("a3b"), activeSummaries: rolling });
    expect(readsRefOfRendering(raw, rolling)).toEqual({ head: "a3b", summary: "S2" });
    const many = activeSummaries(set("N"), index.get);
    const fork = renderContext({
      spine: l.spine("a3b"),
      activeSummaries: many,
      innerSummaries: innerOf(l, many),
    });
    expect(readsRefOfRendering(fork, many)).toEqual({
      head: "a3b",
      summary: null,
      summaries: ["S1"],
    });
  });
});
