import { describe, expect, it } from "vitest";
import {
  activeSummaries,
  activeSummaryIds,
  summaryPolicyOf,
  withActiveSet,
} from "@/lib/engine/active-summaries";
import { activeSetProblem, summaryCoversProblem } from "@/lib/engine/check-summaries";
import { asNodeId } from "@/lib/engine/ids";
import { metaAfterCompaction } from "@/lib/engine/meta-after-compaction";
import { planCompaction } from "@/lib/engine/plan-compaction";
import { renderContext } from "@/lib/engine/render-context";
import type { SessionMeta } from "@/lib/engine/types";
import { id, ledger, type Ledger } from "./helpers";
import { innerOf, PolicySession } from "./policy-session";

const set = (...ids: string[]): SessionMeta => ({ _active_summary_ids: ids.map(asNodeId) });

function render(l: Ledger, head: string, meta: SessionMeta) {
  const index = l.index();
  const active = activeSummaries(meta, index.get);
  return renderContext({
    spine: l.spine(head),
    activeSummaries: active,
    innerSummaries: innerOf(l, active),
  }).ids;
}

/** A trunk of five exchanges, two segments, and a fork from inside the second. */
function twoSegments() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4 u5 a5").chain("a2", "u3b a3b");
  l.summary("S1", ["u1", "a1"]);
  l.summary("S2", ["u2", "a2", "u3", "a3"], "a1");
  return l;
}

describe("the policy and the active set (compaction.md §7)", () => {
  it("[R240] the policy is settings.policy (then the older top-level field), rolling by default", () => {
    expect(summaryPolicyOf({})).toBe("rolling-single");
    expect(summaryPolicyOf({ settings: { policy: "segmented" } })).toBe("segmented");
    expect(summaryPolicyOf({ policy: "nested" })).toBe("nested");
    expect(summaryPolicyOf({ policy: "nested", settings: { policy: "segmented" } })).toBe(
      "segmented",
    );
  });

  it("[R240] the active set is _active_summary_ids when present, else _last_summary_id, under every policy", () => {
    const legacy: SessionMeta = { _last_summary_id: id("S") };
    for (const policy of ["rolling-single", "segmented", "nested"] as const) {
      expect(activeSummaryIds(legacy, policy)).toEqual(["S"]);
      expect(activeSummaryIds(set("S1", "S2"), policy)).toEqual(["S1", "S2"]);
      expect(activeSummaryIds({}, policy)).toEqual([]);
    }
  });

  it("[R240] a rolling set of at most one summary is stored the original way; any other set as _active_summary_ids", () => {
    const meta: SessionMeta = { settings: { model: "m" }, _active_summary_ids: [id("S1")] };
    expect(
      withActiveSet(meta, [id("S2")], "rolling-single", { id: id("S2"), content: "t" }),
    ).toEqual({ settings: { model: "m" }, _last_summary_id: "S2", _last_summary_text: "t" });
    expect(withActiveSet(meta, [], "rolling-single")).toEqual({ settings: { model: "m" } });
    const legacy: SessionMeta = { _last_summary_id: id("S1"), _last_summary_text: "one" };
    expect(withActiveSet(legacy, [id("S1"), id("S2")], "segmented")).toEqual(set("S1", "S2"));
    expect(withActiveSet(legacy, [id("S1")], "segmented")).toEqual(set("S1"));
    // Rolling without a set: exactly the meta compaction always wrote.
    expect(metaAfterCompaction({ a: 1 }, id("S"), "x")).toEqual({
      a: 1,
      _last_summary_id: "S",
      _last_summary_text: "x",
    });
    expect(metaAfterCompaction(set("S1", "S2"), id("S3"), "x")).toEqual({
      _last_summary_id: "S3",
      _last_summary_text: "x",
    });
  });
});

describe("rendering from an active set", () => {
  it("[R241] segmented: §3 applies to each summary on its own — a fork holding segment 1 whole and segment 2 in part reads S1 and segment 2 raw", () => {
    const l = twoSegments();
    const meta = set("S1", "S2");
    expect(render(l, "a5", meta)).toEqual(["R", "S1", "S2", "u4", "a4", "u5", "a5"]);
    expect(render(l, "a3b", meta)).toEqual(["R", "S1", "u2", "a2", "u3b", "a3b"]);
    // A head inside segment 1 has neither.
    expect(render(l, "u1", meta)).toEqual(["R", "u1"]);
    // The order of the set and of the ledger does not matter: the spine and the set decide.
    expect(render(l, "a5", set("S2", "S1"))).toEqual(render(l, "a5", meta));
  });

  it("[R242] nested: a summary of summaries applies iff every real turn under it lies on the spine, else the summaries it names each apply by the same rule", () => {
    const l = twoSegments();
    l.add("N", "summary", "R", {
      content: "nested",
      metadata: { covers_ids: [id("S1"), id("S2")], covers_summaries: true },
    });
    const meta = set("N");
    expect(render(l, "a5", meta)).toEqual(["R", "N", "u4", "a4", "u5", "a5"]);
    expect(render(l, "a3", meta)).toEqual(["R", "N"]);
    expect(render(l, "a3b", meta)).toEqual(["R", "S1", "u2", "a2", "u3b", "a3b"]);
    expect(render(l, "a1", meta)).toEqual(["R", "S1"]);
    expect(render(l, "u1", meta)).toEqual(["R", "u1"]);
  });

  it("[R242] a nested summary whose covers cycle or name a missing summary never applies", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2");
    l.add("N1", "summary", "R", {
      metadata: { covers_ids: [id("N2")], covers_summaries: true },
    });
    l.add("N2", "summary", "R", {
      metadata: { covers_ids: [id("N1")], covers_summaries: true },
    });
    l.add("N3", "summary", "R", {
      metadata: { covers_ids: [id("gone")], covers_summaries: true },
    });
    expect(render(l, "a2", set("N1", "N3"))).toEqual(["R", "u1", "a1", "u2", "a2"]);
  });

  it("[R241] overlapping summaries never both stand in: the first in the set wins", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2");
    l.summary("S1", ["u1", "a1"]);
    l.summary("S2", ["u1", "a1", "u2"]);
    expect(render(l, "a2", set("S1", "S2"))).toEqual(["R", "S1", "u2", "a2"]);
  });
});

describe("segmented compaction", () => {
  it("[R243] a compaction summarises only the oldest raw part before the kept tail; earlier summaries stay active and unchanged", () => {
    const s = new PolicySession("segmented");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28) as string[];
    expect(s.render().ids).toEqual(["R", s1, "u7", "a8"]);
    const before = JSON.stringify(s.l.nodes);
    s.turn();
    s.turn();
    const [s2] = s.compact(28) as string[];
    const first = s.l.get(s1 as string);
    const second = s.l.get(s2 as string);
    // S1 is exactly as it was; S2 covers the turns after S1's segment and hangs off its end.
    expect(JSON.stringify(s.l.nodes).startsWith(before.slice(0, -1))).toBe(true);
    expect(first.metadata.covers_ids).toEqual(["u1", "a2", "u3", "a4", "u5", "a6"]);
    expect(second.metadata.covers_ids).toEqual(["u7", "a8", "u10", "a11"]);
    expect(second.predecessorId).toBe("a6");
    expect(s.activeIds()).toEqual([s1, s2]);
    expect(s.render().ids).toEqual(["R", s1, s2, "u12", "a13"]);
    // The summariser read S1 as context and the new segment; its reads say so.
    expect(s.summariserReads.at(-1)).toEqual([s1, "u7", "a8", "u10", "a11"]);
    expect(second.metadata["previous_summary_id"]).toBeUndefined();
  });

  it("[R243] summaries ahead that outgrow their budget are merged with the new segment into one", () => {
    const s = new PolicySession("segmented");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28, 40) as string[];
    s.turn();
    s.turn();
    const [s2] = s.compact(28, 40) as string[];
    s.turn();
    s.turn();
    // S1 + S2 cost 2 × 34 > 40: the third compaction absorbs both.
    const [s3] = s.compact(28, 40) as string[];
    const merged = s.l.get(s3 as string);
    expect(merged.predecessorId).toBe("R");
    expect(merged.metadata.covers_ids?.[0]).toBe("u1");
    expect(merged.metadata["absorbed_summary_ids"]).toEqual([s1, s2]);
    expect(s.activeIds()).toEqual([s3]);
    expect(s.render().ids).toEqual(["R", s3, "u17", "a18"]);
  });

  it("[R244] a compaction that would overlap another branch's segment retires it; that branch renders the stretch raw and active segments stay disjoint", () => {
    const s = new PolicySession("segmented");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28) as string[];
    s.turn();
    s.turn();
    const [s2] = s.compact(28) as string[];
    const main = s.head;
    // Fork from inside segment 2: a retry of its first reply.
    const fork = s.turn("retry", id("a8"));
    expect(s.render().ids).toEqual(["R", s1, "u7", fork]);
    s.turn();
    s.turn();
    const [s3] = s.compact(28) as string[];
    const third = s.l.get(s3 as string);
    // The new segment takes the shared part and the fork's own turns; S2 is retired.
    expect(third.metadata.covers_ids?.slice(0, 2)).toEqual(["u7", fork]);
    expect(s.activeIds()).toEqual([s1, s3]);
    expect(activeSetProblem(s.activeIds(), s.l.index().get)).toBeNull();
    expect(s2).toBeDefined();
    expect(s.render(main).ids).toEqual(["R", s1, "u7", "a8", "u10", "a11", "u12", "a13"]);
  });
});

describe("nested compaction", () => {
  it("[R245] when the summaries a rendering admits outgrow their budget, all but the newest are nested into one whose covers_ids name them", () => {
    const s = new PolicySession("nested");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28, 80) as string[];
    s.turn();
    s.turn();
    const [s2] = s.compact(28, 80) as string[];
    expect(s.activeIds()).toEqual([s1, s2]);
    s.turn();
    s.turn();
    // A third summary: 3 × 34 > 80, so S1 and S2 are nested.
    const [s3, n] = s.compact(28, 80) as string[];
    const nest = s.l.get(n as string);
    expect(nest.metadata.covers_ids).toEqual([s1, s2]);
    expect(nest.metadata.covers_summaries).toBe(true);
    expect(nest.predecessorId).toBe("R");
    expect(nest.reads).toEqual([]);
    expect(s.summariserReads.at(-1)).toEqual([s1, s2]);
    expect(s.activeIds()).toEqual([n, s3]);
    expect(s.render().ids).toEqual(["R", n, s3, "u17", "a18"]);
    expect(summaryCoversProblem(nest, s.l.index().get)).toBeNull();
  });

  it("[R245] a branch holding the first inner segment whole but not the second reads the first inner summary", () => {
    const s = new PolicySession("nested");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28, 80) as string[];
    for (let i = 0; i < 2; i += 1) s.turn();
    s.compact(28, 80);
    for (let i = 0; i < 2; i += 1) s.turn();
    s.compact(28, 80);
    // Fork right after segment 1 (a retry of the reply that follows it).
    const fork = s.turn("retry", id("a8"));
    expect(s.render().ids).toEqual(["R", s1, "u7", fork]);
  });
});

describe("branch deletes and switching policy", () => {
  it("[R246] deleting a branch holding a segment retires that summary and no other", () => {
    const s = new PolicySession("segmented");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28) as string[];
    const main = s.head;
    const fork = s.turn("retry", id("a8"));
    s.turn();
    s.turn();
    const [s2] = s.compact(28) as string[];
    expect(s.activeIds()).toEqual([s1, s2]);
    s.checkout(main);
    s.deleteBranch(s.l.nodes.filter((n) => n.kind === "assistant").at(-1)?.id ?? fork);
    expect(s.activeIds()).toEqual([s1]);
    expect(s.render().ids).toEqual(["R", s1, "u7", "a8"]);
  });

  it("[R246] a nested summary that loses a turn hands its place to the summaries it names that still hold", () => {
    const l = twoSegments();
    l.add("N", "summary", "R", {
      metadata: { covers_ids: [id("S1"), id("S2")], covers_summaries: true },
    });
    const s = new PolicySession("nested");
    s.l.nodes.splice(0, s.l.nodes.length, ...l.nodes);
    s.meta = { ...s.meta, ...set("N") };
    s.checkout(id("a3b"));
    // Delete the trunk from u3 down: S2's segment loses u3 and a3; S1 still holds.
    s.deleteBranch(id("a5"));
    expect(s.activeIds()).toEqual(["S1"]);
    expect(s.render(id("a3b")).ids).toEqual(["R", "S1", "u2", "a2", "u3b", "a3b"]);
  });

  it("[R247] switching policy rewrites no node: rolling → segmented starts the set with the current summary", () => {
    const s = new PolicySession("rolling-single");
    for (let i = 0; i < 4; i += 1) s.turn();
    const [s1] = s.compact(28) as string[];
    const nodes = JSON.stringify(s.l.nodes);
    const meta = s.meta;
    s.setPolicy("segmented");
    expect(JSON.stringify(s.l.nodes)).toBe(nodes);
    expect(s.activeIds()).toEqual([s1]);
    expect(s.meta._last_summary_id).toBe(meta._last_summary_id);
    s.turn();
    s.turn();
    const [s2] = s.compact(28) as string[];
    expect(s.activeIds()).toEqual([s1, s2]);
    expect(s.l.get(s1 as string).metadata).toEqual(JSON.parse(nodes).at(-1).metadata);
  });

  it("[R247] segmented or nested → rolling: the set stays until the next compaction absorbs all of it into one summary of real turns", () => {
    for (const from of ["segmented", "nested"] as const) {
      const s = new PolicySession(from);
      for (let i = 0; i < 4; i += 1) s.turn();
      const [s1] = s.compact(28) as string[];
      s.turn();
      s.turn();
      const [s2] = s.compact(28) as string[];
      const rendered = s.render().ids;
      s.setPolicy("rolling-single");
      expect(s.render().ids).toEqual(rendered);
      expect(s.activeIds()).toEqual([s1, s2]);
      s.turn();
      s.turn();
      const [s3] = s.compact(28) as string[];
      const rolled = s.l.get(s3 as string);
      expect(rolled.predecessorId).toBe("R");
      expect(rolled.metadata.covers_ids?.[0]).toBe("u1");
      expect(rolled.metadata.covers_summaries).toBeUndefined();
      expect(rolled.metadata["absorbed_summary_ids"]).toEqual([s1, s2]);
      expect(s.meta._last_summary_id).toBe(s3);
      expect(s.meta._active_summary_ids).toBeUndefined();
      expect(s.render().ids.slice(0, 2)).toEqual(["R", s3]);
    }
  });
});

describe("stale plans", () => {
  it("[R243] a rendering admitting a summary outside the active set is stale input", () => {
    const l = twoSegments();
    const spine = l.spine("a5");
    const index = l.index();
    const rendering = renderContext({
      spine,
      activeSummaries: activeSummaries(set("S1", "S2"), index.get),
    });
    const plan = () =>
      planCompaction({
        spine,
        rendering,
        activeSummaries: activeSummaries(set("S1"), index.get),
        policy: "segmented",
        keepRecentTokens: 0,
      });
    expect(plan).toThrow(/stale summary S2/);
  });
});
