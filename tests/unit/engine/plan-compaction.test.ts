import { describe, expect, it } from "vitest";
import { acceptSummary } from "@/lib/engine/accept-summary";
import { activeSummaries } from "@/lib/engine/active-summaries";
import { buildGraph } from "@/lib/engine/build-graph";
import { tokens } from "@/lib/engine/ids";
import { metaAfterCompaction } from "@/lib/engine/meta-after-compaction";
import { planCompaction, type CompactionWork } from "@/lib/engine/plan-compaction";
import { renderContext } from "@/lib/engine/render-context";
import { summaryDraft } from "@/lib/engine/summary-draft";
import type { SessionMeta } from "@/lib/engine/types";
import { codeOf, deepFreeze, id, Ledger, ledger } from "./helpers";

const M = 14;

function plan(l: Ledger, head: string, summary: string | undefined, keep: number) {
  const index = l.index();
  const spine = l.spine(head);
  const active = summary === undefined ? [] : activeSummaries(l.meta(summary), index.get);
  return planCompaction({
    spine,
    rendering: renderContext({ spine, activeSummaries: active }),
    activeSummary: active[0] ?? null,
    keepRecentTokens: keep,
  });
}

function work(l: Ledger, head: string, summary: string | undefined, keep: number) {
  const p = plan(l, head, summary, keep);
  if (p.kind !== "compact") throw new Error(`expected work, got ${p.code}`);
  return p;
}

/** Persists a plan's summary the way the pipeline would. */
function persist(l: Ledger, p: CompactionWork, summaryId: string, meta: SessionMeta) {
  const draft = summaryDraft(p, {
    text: `text of ${summaryId}`,
    tokenCount: tokens(10),
    trigger: "manual",
  });
  l.add(summaryId, draft.kind, draft.predecessorId, {
    content: draft.content,
    metadata: draft.metadata,
  });
  return metaAfterCompaction(meta, id(summaryId), draft.content);
}

describe("compaction planning (compaction.md §4)", () => {
  it("[R43] the input is the rendered view: a compacted branch covers S, not what S covers", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const p = work(l, "a4", "S", 2 * M);
    expect(p.covered.map((m) => m.id)).toEqual(["S", "u3", "a3"]);
    expect(p.kept.map((m) => m.id)).toEqual(["u4", "a4"]);
  });

  it("[R44] fewer than 4 history messages short-circuit with a notice", () => {
    const l = ledger().chain("R", "u1 a1 u2");
    const p = plan(l, "u2", undefined, 0);
    expect(p).toMatchObject({ kind: "notice", code: "too_few_messages" });
    expect(p.kind === "notice" ? p.message : "").toMatch(/3 messages, at least 4/);
    expect(plan(l.chain("u2", "a2"), "a2", undefined, 0).kind).toBe("compact");
  });

  it("[R48] a view that already fits the kept window is a nothing-to-compact notice", () => {
    const p = plan(ledger().chain("R", "u1 a1 u2 a2"), "a2", undefined, 1000);
    expect(p).toMatchObject({ kind: "notice", code: "nothing_to_compact", tokensBefore: 5 * M });
  });

  it("[R49] covers_ids extends the previous segment, never holds a summary, hangs off ROOT", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const p = work(l, "a4", "S", 2 * M);
    expect(p.coversIds).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
    expect(p.newlyCoveredIds).toEqual(["u3", "a3"]);
    expect(p.predecessorId).toBe("R");
    expect(p.counts).toEqual({ covered: 6, newlyCovered: 2, kept: 2 });
    expect(p.coversIds).not.toContain("S");
  });

  it("[R49] the segment stays contiguous across nodes a rendering skips", () => {
    const l = ledger().chain("R", "u1");
    l.add("a1", "assistant", "u1", { status: "error" });
    l.chain("a1", "u2 a2 u3 a3");
    const p = work(l, "a3", undefined, 2 * M);
    expect(p.covered.map((m) => m.id)).toEqual(["u1", "u2", "a2"]);
    expect(p.coversIds).toEqual(["u1", "a1", "u2", "a2"]);
  });

  it("[R50] a branch that renders raw chains no summary and covers only its own turns", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4").chain("a1", "u2b a2b u3b a3b");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const p = work(l, "a3b", "S", 2 * M);
    expect(p.previousSummary).toBeNull();
    expect(p.coversIds).toEqual(["u1", "a1", "u2b", "a2b"]);
    expect(p.reads).toEqual(["u1", "a1", "u2b", "a2b"]);
    const chained = work(l, "a4", "S", 2 * M);
    expect(chained.previousSummary).toEqual({ id: "S", text: "summary S" });
  });

  it("[R42] the summariser call reads the covered slice: the summary's id, not its segment", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const p = work(l, "a4", "S", 2 * M);
    expect(p.reads).toEqual(["S", "u3", "a3"]);
    const draft = summaryDraft(p, { text: "t", tokenCount: tokens(1), trigger: "auto" });
    expect(draft.reads).toEqual(["S", "u3", "a3"]);
  });

  it("[R7] planning and drafting mutate nothing and describe exactly one head-neutral node", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    deepFreeze(l.nodes);
    const before = JSON.stringify(l.nodes);
    const p = work(l, "a4", "S", 2 * M);
    const draft = summaryDraft(p, { text: "new", tokenCount: tokens(5), trigger: "manual" });
    expect(JSON.stringify(l.nodes)).toBe(before);
    expect(draft).toEqual({
      kind: "summary",
      predecessorId: "R",
      content: "new",
      status: "complete",
      tokenCount: 5,
      callerId: null,
      metadata: {
        covers_ids: ["u1", "a1", "u2", "a2", "u3", "a3"],
        trigger: "manual",
        kept_user_turns: 1,
        // ROOT, S (10 + 20 prefix + 4) and four turns.
        tokens_before: M + 34 + 4 * M,
        previous_summary_id: "S",
      },
      reads: ["S", "u3", "a3"],
      advanceHead: false,
    });
    // The kept tail keeps its ids and predecessors: u4 still hangs off a3.
    expect(l.get("u4").predecessorId).toBe("a3");
  });

  it("[R7] stale input is refused rather than planned", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3");
    l.summary("S", ["u1", "a1"]);
    const index = l.index();
    const spine = l.spine("u3");
    const rendering = renderContext({
      spine,
      activeSummaries: activeSummaries(l.meta("S"), index.get),
    });
    const input = { spine, rendering, activeSummary: null, keepRecentTokens: 0 };
    expect(codeOf(() => planCompaction(input))).toBe("invalid_request");
    expect(codeOf(() => planCompaction({ ...input, spine: l.spine("a2") }))).toBe(
      "invalid_request",
    );
  });
});

describe("manual compaction keeps only the latest exchange", () => {
  function manual(l: Ledger, head: string, summary: string | undefined, keep = 100_000) {
    const index = l.index();
    const spine = l.spine(head);
    const active = summary === undefined ? [] : activeSummaries(l.meta(summary), index.get);
    return planCompaction({
      spine,
      rendering: renderContext({ spine, activeSummaries: active }),
      activeSummary: active[0] ?? null,
      keepRecentTokens: keep,
      keep: "latest-exchange",
    });
  }

  it("[R200] everything before the newest user message is covered, whatever the kept window", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3");
    // The same view with the window policy: it all fits, nothing to do.
    expect(plan(l, "a3", undefined, 100_000)).toMatchObject({ code: "nothing_to_compact" });
    const p = manual(l, "a3", undefined);
    if (p.kind !== "compact") throw new Error(p.message);
    expect(p.coversIds).toEqual(["u1", "a1", "u2", "a2"]);
    expect(p.kept.map((m) => m.id)).toEqual(["u3", "a3"]);
    // A head at the newest question keeps just that question.
    const q = manual(l.chain("a3", "u4"), "u4", undefined);
    expect(q.kind === "compact" ? q.kept.map((m) => m.id) : q.code).toEqual(["u4"]);
  });

  it("[R200] the cut rules still hold: a tool pair stays whole, a pending call stays kept", () => {
    const l = ledger().chain("R", "u1 a1 u2");
    l.add("a2", "assistant", "u2", { toolCalls: ["c1"] });
    const p = manual(l, "a2", undefined);
    // a2 is waiting for its result: u2 and a2 stay; u1 a1 go.
    expect(p.kind === "compact" ? p.kept.map((m) => m.id) : p.code).toEqual(["u2", "a2"]);
  });

  it("[R200] with a summary already standing in for all but the latest exchange: nothing to compact", () => {
    // The latest exchange is a tool round: S, u3, a3 → t1 → a4 is five messages, and only
    // the summary lies before u3.
    const l = ledger().chain("R", "u1 a1 u2 a2 u3");
    l.add("a3", "assistant", "u3", { toolCalls: ["c1"] });
    l.add("t1", "tool", "a3", { toolCallId: "c1" });
    l.chain("t1", "a4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const p = manual(l, "a4", "S");
    expect(p).toMatchObject({ kind: "notice", code: "nothing_to_compact" });
    expect(p.kind === "notice" ? p.message : "").toMatch(/before the latest exchange/);
    // One more exchange and the summary is absorbed with it.
    const next = manual(l.chain("a4", "u4 a5"), "a5", "S");
    expect(next.kind === "compact" ? next.coversIds : next.code).toEqual([
      "u1",
      "a1",
      "u2",
      "a2",
      "u3",
      "a3",
      "t1",
      "a4",
    ]);
  });

  it("[R200] fewer than four history messages is still too few", () => {
    expect(manual(ledger().chain("R", "u1 a1 u2"), "u2", undefined)).toMatchObject({
      code: "too_few_messages",
    });
  });
});

describe("persisting and re-compacting", () => {
  it("[R51] meta moves to the new summary, its text exactly the node's content", () => {
    const meta: SessionMeta = {
      _last_summary_id: id("S"),
      _last_summary_text: "old",
      settings: { model: "m" },
    };
    expect(metaAfterCompaction(meta, id("S2"), "fresh")).toEqual({
      _last_summary_id: "S2",
      _last_summary_text: "fresh",
      settings: { model: "m" },
    });
    expect(metaAfterCompaction(meta, id("S2"), "fresh")).not.toHaveProperty("headId");
    expect(meta._last_summary_id).toBe("S");
  });

  it("[R52] compact → chat → compact: [ROOT, S, tail], then the new summary absorbs the old", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    const first = work(l, "a4", undefined, 2 * M);
    let meta = persist(l, first, "S1", {});
    const r1 = renderContext({
      spine: l.spine("a4"),
      activeSummaries: activeSummaries(meta, l.index().get),
    });
    expect(r1.ids).toEqual(["R", "S1", "u4", "a4"]);
    expect(l.get("S1").predecessorId).toBe("R");

    l.chain("a4", "u5 a5 u6 a6");
    const second = work(l, "a6", "S1", 2 * M);
    expect(second.previousSummary?.id).toBe("S1");
    meta = persist(l, second, "S2", meta);
    const index = l.index();
    const r2 = renderContext({
      spine: l.spine("a6"),
      activeSummaries: activeSummaries(meta, index.get),
    });
    expect(r2.ids).toEqual(["R", "S2", "u6", "a6"]);
    const covers = l.get("S2").metadata.covers_ids ?? [];
    expect(covers).toEqual(["u1", "a1", "u2", "a2", "u3", "a3", "u4", "a4", "u5", "a5"]);
    for (const c of first.coversIds) expect(covers).toContain(c);
    expect(covers.some((c) => l.get(c).kind === "summary")).toBe(false);

    const graph = buildGraph({ ...l.session("a6"), meta }, l.nodes);
    expect(graph.activeSummaryId).toBe("S2");
    expect(graph.nodes.find((n) => n.id === "S1")?.superseded_summary).toBe(true);
  });
});

describe("the shrink guard", () => {
  it("[R55] a summary is accepted only if the rendering shrinks", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    const p = work(l, "a4", undefined, 2 * M);
    // After: ROOT (14) + kept (28) + summary (n + 20 prefix + 4).
    expect(acceptSummary(p, { text: "short", tokenCount: tokens(10) })).toEqual({
      accept: true,
      tokensAfter: 14 + 28 + 34,
    });
    const limit = p.tokensBefore - (14 + 28 + 24);
    expect(acceptSummary(p, { text: "long", tokenCount: tokens(limit) })).toMatchObject({
      accept: false,
      reason: "not_smaller",
    });
    expect(acceptSummary(p, { text: "long", tokenCount: tokens(limit - 1) }).accept).toBe(true);
    expect(acceptSummary(p, { text: "  \n", tokenCount: tokens(1) })).toMatchObject({
      accept: false,
      reason: "empty",
    });
  });
});
