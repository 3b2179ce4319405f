import { describe, expect, it } from "vitest";
import { findCutIndex } from "@/lib/engine/find-cut-index";
import { ledger } from "./helpers";

// Every test node costs 10 tokens + 4 overhead = 14 in a prompt.
const M = 14;

function eight() {
  return ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
}

describe("findCutIndex (compaction.md §4 step 2)", () => {
  it("[R45] keeps the longest tail that fits, starting at a user turn", () => {
    const view = eight().render("a4").messages;
    const cut = findCutIndex(view, 2 * M);
    expect(cut).toEqual({ kind: "cut", index: 7, coveredTokens: 6 * M, keptTokens: 2 * M });
    expect(view[7]?.id).toBe("u4");
  });

  it("[R45] snaps forward to the next user turn, never backward past the budget", () => {
    const view = eight().render("a4").messages;
    // 3 messages (a3 u4 a4) fit; a3 is not a user turn, so the tail starts at u4.
    const cut = findCutIndex(view, 3 * M + 5);
    expect(cut).toMatchObject({ kind: "cut", index: 7 });
    // 4 messages fit and start at u3.
    expect(findCutIndex(view, 4 * M)).toMatchObject({ kind: "cut", index: 5 });
  });

  it("[R81] when not even the last turn fits, the newest user message is still kept", () => {
    const view = eight().render("a4").messages;
    expect(findCutIndex(view, M + 1)).toEqual({
      kind: "cut",
      index: 7,
      coveredTokens: 6 * M,
      keptTokens: 2 * M,
    });
    expect(findCutIndex(view, -5)).toMatchObject({ kind: "cut", index: 7 });
    // A spine ending at a large new question: the question is never summarised away.
    const asking = ledger().chain("R", "u1 a1 u2 a2 u3").render("u3").messages;
    const cut = findCutIndex(asking, 0);
    expect(cut).toMatchObject({ kind: "cut", index: 5 });
    expect(asking[5]?.id).toBe("u3");
  });

  it("[R81] with only the newest question left uncovered there is nothing to compact", () => {
    const view = ledger().chain("R", "u1").render("u1").messages;
    expect(findCutIndex(view, 0)).toEqual({ kind: "nothing_to_compact", reason: "nothing_new" });
  });

  it("[R82] an assistant whose tool call has no result yet is never covered", () => {
    // During /task HEAD is the caller, whose call is unanswered: it stays in the kept tail.
    const l = ledger().chain("R", "u1 a1 u2");
    l.add("c", "assistant", "u2", { toolCalls: ["call1"] });
    const view = l.render("c").messages;
    expect(view.map((m) => m.id)).toEqual(["R", "u1", "a1", "u2", "c"]);
    const cut = findCutIndex(view, 0);
    expect(cut).toMatchObject({ kind: "cut", index: 3 });
    expect(view.slice(3).map((m) => m.id)).toEqual(["u2", "c"]);
  });

  it("[R82] a call the conversation moved on from (its result never came) does not block compaction", () => {
    const l = ledger().chain("R", "u1");
    l.add("c", "assistant", "u1", { toolCalls: ["lost"] });
    l.chain("c", "u2 a2 u3 a3");
    const view = l.render("a3").messages;
    const cut = findCutIndex(view, 0);
    // Everything up to the newest question may be covered, the abandoned caller included.
    expect(cut).toMatchObject({ kind: "cut", index: 5 });
    expect(view[5]?.id).toBe("u3");
  });

  it("[R46] the previous summary always lands on the covered side", () => {
    const l = eight();
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const view = l.render("a4", "S").messages;
    expect(view.map((m) => m.id)).toEqual(["R", "S", "u3", "a3", "u4", "a4"]);
    const cut = findCutIndex(view, 2 * M);
    expect(cut).toMatchObject({ kind: "cut", index: 4 });
    // A budget that would keep the summary itself still cuts after it.
    const all = findCutIndex(view, 1000);
    expect(all.kind === "cut" ? all.index : 99).toBeGreaterThan(1);
  });

  it("[R47] never separates an assistant's tool call from its tool results", () => {
    const l = ledger().chain("R", "u1");
    l.add("a1", "assistant", "u1", { toolCalls: ["c1"] });
    l.chain("a1", "u2");
    l.add("t1", "tool", "u2", { toolCallId: "c1" });
    l.chain("t1", "a2 u3 a3");
    const view = l.render("a3").messages;
    expect(view.map((m) => m.id)).toEqual(["R", "u1", "a1", "u2", "t1", "a2", "u3", "a3"]);
    // Keeping u2.. would split a1 from t1: the cut moves on to u3.
    expect(findCutIndex(view, 5 * M)).toMatchObject({ kind: "cut", index: 6 });

    // The same shape without the call/result link cuts at u2.
    const plain = ledger().chain("R", "u1 a1 u2 t1 a2 u3 a3").render("a3").messages;
    expect(findCutIndex(plain, 5 * M)).toMatchObject({ kind: "cut", index: 3 });
  });

  it("[R47] a tool loop stays whole: results after several calls keep the cut past them", () => {
    const l = ledger().chain("R", "u1 a0 u2");
    l.add("a1", "assistant", "u2", { toolCalls: ["c1", "c2"] });
    l.add("t1", "tool", "a1", { toolCallId: "c1" });
    l.chain("t1", "u3");
    l.add("t2", "tool", "u3", { toolCallId: "c2" });
    l.chain("t2", "a2");
    const view = l.render("a2").messages;
    const cut = findCutIndex(view, 3 * M);
    // No cut inside the loop; past it the newest question (u3) would be covered ([R81]), so
    // the whole loop stays kept.
    expect(cut).toMatchObject({ kind: "cut", index: 3 });
    expect(view[3]?.id).toBe("u2");
  });

  it("[R48] nothing to compact when the tail that fits holds every uncovered turn", () => {
    const short = ledger().chain("R", "u1 a1 u2 a2").render("a2").messages;
    expect(findCutIndex(short, 1000)).toEqual({
      kind: "nothing_to_compact",
      reason: "nothing_new",
    });
    const l = eight();
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    expect(findCutIndex(l.render("a4", "S").messages, 1000)).toEqual({
      kind: "nothing_to_compact",
      reason: "nothing_new",
    });
    expect(findCutIndex(ledger().render("R").messages, 0)).toEqual({
      kind: "nothing_to_compact",
      reason: "no_history",
    });
  });
});
