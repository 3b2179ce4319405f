import { describe, expect, it } from "vitest";
import { expansionNeeds, replayPrompt, summariesRead } from "@/lib/engine/replay-prompt";
import { renderContext } from "@/lib/engine/render-context";
import { sentIds, sentMessages } from "@/lib/engine/sent-messages";
import type { LedgerNode, NodeLookup } from "@/lib/engine/types";
import { toWire } from "@/lib/view/wire";
import { codeOf, id, ids, ledger } from "./helpers";

/** A compacted branch: S stands in for u1..a2; the reply a4 was produced from [R, S, u3, a3, u4]. */
function compacted() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4");
  l.summary("S", ["u1", "a1", "u2", "a2"]);
  return l;
}

/** What a reply produced from `head`'s rendering read, as the turn path stamps it. */
function readsFrom(l: ReturnType<typeof ledger>, head: string, summary?: string) {
  return sentIds(l.render(head, summary));
}

describe("replay (issue 22)", () => {
  it("[R220] an exact replay's messages are the original prompt's, message for message", () => {
    const l = compacted();
    const original = l.render("u4", "S");
    const replay = replayPrompt(sentIds(original), l.lookup);
    expect(replay.expanded).toEqual([]);
    expect(toWire(replay.rendering)).toEqual(toWire(original));
    // Byte for byte as the provider receives them.
    expect(JSON.stringify(toWire(replay.rendering).messages)).toBe(
      JSON.stringify(toWire(original).messages),
    );
  });

  it("[R220] tool use, interrupted replies and a summary render exactly as they were sent", () => {
    const l = ledger();
    l.add("u1", "user", "R");
    l.add("a1", "assistant", "u1", { toolCalls: ["c1", "c2"], content: "" });
    l.add("t1", "tool", "a1", { toolCallId: "c1", content: "result 1" });
    l.add("u2", "user", "t1");
    l.add("a2", "assistant", "u2", { status: "interrupted", content: "half an ans" });
    l.add("a2e", "assistant", "u2", { status: "error", content: "boom" });
    l.add("u3", "user", "a2");
    l.summary("S", ["u1", "a1", "t1"]);
    for (const summary of [undefined, "S"]) {
      const original = l.render("u3", summary);
      const replay = replayPrompt(sentIds(original), l.lookup);
      expect(sentMessages(replay.rendering)).toEqual(sentMessages(original));
      expect(toWire(replay.rendering)).toEqual(toWire(original));
    }
    // The unanswered call c2 stays off the wire, as it did originally.
    const wire = toWire(replayPrompt(readsFrom(l, "u3"), l.lookup).rendering);
    expect(wire.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id)).toEqual(["c1"]);
  });

  it("[R221] expanding the summary replaces its message with the originals, in spine order", () => {
    const l = compacted();
    const reads = readsFrom(l, "u4", "S");
    const exact = replayPrompt(reads, l.lookup).rendering.messages;
    const replay = replayPrompt(reads, l.lookup, "all");
    expect(replay.expanded).toEqual(ids("S"));
    expect(replay.expandedTurns).toBe(4);
    const at = exact.findIndex((m) => m.id === id("S"));
    const originals = ["u1", "a1", "u2", "a2"].map((n) => l.render(n).messages.at(-1));
    expect(replay.rendering.messages).toEqual([
      ...exact.slice(0, at),
      ...originals,
      ...exact.slice(at + 1),
    ]);
    // Under the rolling policy that is the spine rendered raw.
    expect(toWire(replay.rendering)).toEqual(toWire(l.render("u4")));
  });

  it("[R221] originals skip what a raw spine skips; only the named summaries expand", () => {
    const l = ledger().chain("R", "u1");
    l.add("a1e", "assistant", "u1", { status: "error" });
    l.chain("a1e", "u2 a2 u3 a3 u4 a4 u5");
    l.summary("S1", ["u1", "a1e", "u2", "a2"]);
    l.summary("S2", ["u3", "a3"], "a2");
    const getNode: NodeLookup = l.lookup;
    const reads = ids("R", "S1", "S2", "u4", "a4", "u5");
    const second = replayPrompt(reads, getNode, ids("S2"));
    expect(second.expanded).toEqual(ids("S2"));
    expect(second.rendering.ids).toEqual(ids("R", "S1", "u3", "a3", "u4", "a4", "u5"));
    const both = replayPrompt(reads, getNode, "all");
    expect(both.rendering.ids).toEqual(ids("R", "u1", "u2", "a2", "u3", "a3", "u4", "a4", "u5"));
    expect(both.expandedTurns).toBe(5);
  });

  it("[R221] a nested summary expands to every turn under it", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3");
    l.summary("S1", ["u1", "a1"]);
    l.summary("S2", ["u2", "a2"], "a1");
    l.add("N", "summary", "R", {
      content: "nested",
      metadata: { covers_ids: ids("S1", "S2"), covers_summaries: true },
    });
    const replay = replayPrompt(ids("R", "N", "u3"), l.lookup, "all");
    expect(replay.rendering.ids).toEqual(ids("R", "u1", "a1", "u2", "a2", "u3"));
    // A loader learns what to read one level at a time.
    const known = new Map<string, LedgerNode>([["N", l.get("N")]]);
    const lookup: NodeLookup = (nodeId) => known.get(nodeId);
    expect(expansionNeeds([l.get("N")], lookup)).toEqual({ summaries: ids("S1", "S2"), turns: [] });
    known.set("S1", l.get("S1"));
    known.set("S2", l.get("S2"));
    expect(expansionNeeds([l.get("N")], lookup)).toEqual({
      summaries: [],
      turns: ids("u1", "a1", "u2", "a2"),
    });
  });

  it("[R222] a replay's reads are the ids of what it sends: the provenance rule of every reply", () => {
    const l = compacted();
    const reads = readsFrom(l, "u4", "S");
    const exact = replayPrompt(reads, l.lookup);
    expect(sentIds(exact.rendering)).toEqual(reads);
    const expanded = replayPrompt(reads, l.lookup, "all");
    expect(sentIds(expanded.rendering)).toEqual(toWire(expanded.rendering).ids);
    expect(sentIds(expanded.rendering)).not.toContain(id("S"));
    expect(sentIds(expanded.rendering)).toEqual(
      sentIds(renderContext({ spine: l.spine("u4"), activeSummaries: [] })),
    );
    expect(summariesRead(reads, l.lookup).map((s) => s.id)).toEqual(ids("S"));
  });

  it("[R222] a prompt that cannot be rebuilt is refused with a clear code", () => {
    const l = compacted();
    expect(codeOf(() => replayPrompt([], l.lookup))).toBe("no_provenance");
    expect(codeOf(() => replayPrompt(ids("R", "gone", "u4"), l.lookup))).toBe("no_provenance");
    expect(codeOf(() => replayPrompt(ids("R", "u4"), l.lookup, ids("S")))).toBe("invalid_request");
    expect(codeOf(() => replayPrompt(ids("R", "S", "u4"), l.lookup, ids("u4")))).toBe(
      "invalid_request",
    );
    // An expanded summary whose originals are gone cannot stand for them.
    const missing: NodeLookup = (nodeId) => (nodeId === "a1" ? undefined : l.lookup(nodeId));
    expect(codeOf(() => replayPrompt(ids("R", "S", "u3"), missing, "all"))).toBe("no_provenance");
    expect(codeOf(() => replayPrompt(ids("R", "S", "u3"), missing))).toBeUndefined();
    // "all" on a prompt without summaries is the exact replay.
    expect(replayPrompt(ids("R", "u1"), l.lookup, "all").expanded).toEqual([]);
  });
});
