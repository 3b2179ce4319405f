import { describe, expect, it } from "vitest";
import { activeSummaries, activeSummaryIds } from "@/lib/engine/active-summaries";
import { renderContext } from "@/lib/engine/render-context";
import { SUMMARY_PREFIX } from "@/lib/engine/render-message";
import { asNodeId } from "@/lib/engine/ids";
import { codeOf, id, ledger } from "./helpers";

/** ROOT, eight turns, and S standing in for the first four. */
function compacted() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
  l.summary("S", ["u1", "a1", "u2", "a2"]);
  return l;
}

describe("rendering: roles and what renders", () => {
  it("[R8] ROOT comes first as system; user, assistant and tool keep their roles", () => {
    const l = ledger().chain("R", "u1");
    l.add("a1", "assistant", "u1", { toolCalls: ["c1"] });
    l.add("t1", "tool", "a1", { toolCallId: "c1", callerId: "a1" });
    l.chain("t1", "a2");
    const r = l.render("a2");
    expect(r.ids[0]).toBe("R");
    expect(r.headId).toBe("a2");
    expect(r.messages.map((m) => [m.id, m.kind, m.role])).toEqual([
      ["R", "root", "system"],
      ["u1", "user", "user"],
      ["a1", "assistant", "assistant"],
      ["t1", "tool", "tool"],
      ["a2", "assistant", "assistant"],
    ]);
    expect(r.messages[0]?.content).toBe("You are a test assistant.");
  });

  it("[R8] a summary is sent as a user message framed by the summary prefix", () => {
    const r = compacted().render("a4", "S");
    const s = r.messages[1];
    expect(s?.kind).toBe("summary");
    expect(s?.role).toBe("user");
    expect(s?.content).toBe(`${SUMMARY_PREFIX}summary S`);
  });

  it("[R9] notices and failed replies never enter a rendering", () => {
    const l = ledger().chain("R", "u1 a1");
    l.add("n1", "notice", "a1");
    l.chain("a1", "u2");
    l.add("a2", "assistant", "u2", { status: "error", content: "provider said no" });
    l.chain("a2", "u3");
    l.add("a3", "assistant", "u3", { status: "interrupted", content: "half a rep" });
    l.add("n2", "notice", "a3");
    l.chain("n2", "u4");
    const r = l.render("u4");
    expect(r.ids).toEqual(["R", "u1", "a1", "u2", "u3", "a3", "u4"]);
    expect(r.messages.find((m) => m.id === "a3")?.content).toBe("half a rep");
  });

  it("[R9] a summary lying on a spine is not rendered in place", () => {
    const l = ledger().chain("R", "u1 a1");
    l.summary("S", ["u1"], "a1");
    l.chain("S", "u2");
    expect(l.render("u2").ids).toEqual(["R", "u1", "a1", "u2"]);
  });

  it("[R10] tool calls and tool-call ids reach the rendered messages", () => {
    const l = ledger().chain("R", "u1");
    l.add("a1", "assistant", "u1", { toolCalls: ["c1", "c2"], content: "" });
    l.add("t1", "tool", "a1", { toolCallId: "c1" });
    l.add("t2", "tool", "t1", { toolCallId: "c2" });
    const r = l.render("t2");
    const call = r.messages.find((m) => m.id === "a1");
    expect(call?.toolCalls?.map((c) => c.id)).toEqual(["c1", "c2"]);
    expect(call?.toolCalls?.[0]).toEqual({ id: "c1", name: "lookup", arguments: "{}" });
    expect(r.messages.find((m) => m.id === "t2")?.toolCallId).toBe("c2");
    expect(r.messages.find((m) => m.id === "u1")).not.toHaveProperty("toolCalls");
    expect(r.messages.find((m) => m.id === "u1")).not.toHaveProperty("toolCallId");
  });
});

describe("rendering: segment substitution (compaction.md §3)", () => {
  it("[R11] a compacted branch renders [ROOT, S, kept tail…]", () => {
    expect(compacted().render("a4", "S").ids).toEqual(["R", "S", "u3", "a3", "u4", "a4"]);
  });

  it("[R11] S is admitted at the segment's position, whatever order covers_ids lists it in", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3");
    l.summary("S", ["a2", "u1", "u2", "a1"]);
    expect(l.render("u3", "S").ids).toEqual(["R", "S", "u3"]);
  });

  it("[R11] a head at the segment's last node renders [ROOT, S]", () => {
    expect(compacted().render("a2", "S").ids).toEqual(["R", "S"]);
  });

  it("[R12] a fork from inside the covered range renders raw", () => {
    const l = compacted().chain("a1", "u2b a2b");
    expect(l.render("a2b", "S").ids).toEqual(["R", "u1", "a1", "u2b", "a2b"]);
  });

  it("[R12] a head rewound into the covered range renders raw", () => {
    expect(compacted().render("u2", "S").ids).toEqual(["R", "u1", "a1", "u2"]);
  });

  it("[R13] a dead sibling from the same era renders raw", () => {
    // a2x: a retry of a2, abandoned before the compaction ate a2.
    const l = compacted().chain("u2", "a2x");
    expect(l.render("a2x", "S").ids).toEqual(["R", "u1", "a1", "u2", "a2x"]);
  });

  it("[R14] a superseded summary never elides anything", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3").chain("a1", "u2b a2b");
    l.summary("S1", ["u1", "a1"]);
    l.summary("S2", ["u1", "a1", "u2", "a2"]);
    // S1's segment lies on a2b's spine, but only S2 is active.
    expect(l.render("a2b", "S2").ids).toEqual(["R", "u1", "a1", "u2b", "a2b"]);
    expect(l.render("a3", "S2").ids).toEqual(["R", "S2", "u3", "a3"]);
    expect(l.render("a2b", "S1").ids).toEqual(["R", "S1", "u2b", "a2b"]);
  });

  it("[R14] a dangling or non-summary pointer in meta changes nothing", () => {
    const l = compacted();
    const raw = ["R", "u1", "a1", "u2", "a2", "u3", "a3", "u4", "a4"];
    expect(l.render("a4", "ghost").ids).toEqual(raw);
    expect(l.render("a4", "u3").ids).toEqual(raw);
    expect(activeSummaries(l.meta("u3"), l.index().get)).toEqual([]);
  });

  it("[R15] a rendering depends only on the spine and the active summary, never on HEAD", () => {
    const l = compacted();
    const before = l.render("a4", "S");
    l.chain("a1", "u2b a2b").chain("a4", "u5 a5").chain("u3", "a3z");
    const index = l.index();
    const after = renderContext({
      spine: l.spine("a4"),
      activeSummaries: activeSummaries(l.session("a2b", "S").meta, index.get),
    });
    expect(after).toEqual(before);
    expect(l.render("a4", "S")).toEqual(before);
  });

  it("[R16] a summary with empty covers_ids, or one covering ROOT, never applies", () => {
    const l = ledger().chain("R", "u1 a1 u2");
    l.summary("S0", []);
    l.summary("SR", ["R", "u1"]);
    l.add("Sx", "summary", "R", { metadata: { covers_ids: "u1" as unknown as [] } });
    expect(l.render("u2", "S0").ids).toEqual(["R", "u1", "a1", "u2"]);
    expect(l.render("u2", "SR").ids).toEqual(["R", "u1", "a1", "u2"]);
    expect(l.render("u2", "Sx").ids).toEqual(["R", "u1", "a1", "u2"]);
  });

  it("[R16] a spine that does not start at ROOT is invalid_ledger", () => {
    const l = ledger().chain("R", "u1 a1");
    expect(
      codeOf(() => renderContext({ spine: l.spine("a1").slice(1), activeSummaries: [] })),
    ).toBe("invalid_ledger");
    expect(codeOf(() => renderContext({ spine: [], activeSummaries: [] }))).toBe("invalid_ledger");
  });
});

describe("summary policy (compaction.md §7)", () => {
  it("[R18] rolling-single: at most one active summary, meta._last_summary_id", () => {
    expect(activeSummaryIds({})).toEqual([]);
    expect(activeSummaryIds({ _last_summary_id: asNodeId("S") })).toEqual(["S"]);
    expect(activeSummaryIds({ _last_summary_id: asNodeId("S") }, "rolling-single")).toEqual(["S"]);
    const l = compacted();
    expect(activeSummaries(l.meta("S"), l.index().get).map((n) => n.id)).toEqual([id("S")]);
  });

  it("[R18] an unknown policy smuggled in through JSON fails loudly", () => {
    // "segmented" and "nested" are policies now (issue 23); "stacked" is not.
    const meta = { policy: "stacked" as "rolling-single" };
    expect(codeOf(() => activeSummaryIds(meta))).toBe("internal");
  });
});
