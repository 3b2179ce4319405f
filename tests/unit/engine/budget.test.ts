import { describe, expect, it } from "vitest";
import {
  autoCompactDecision,
  THRASH_TURNS,
  type AutoCompactInput,
} from "@/lib/engine/auto-compact-decision";
import { latchAfterFailure, latchHolds } from "@/lib/engine/auto-compact-latch";
import { tokens } from "@/lib/engine/ids";
import { overflowDecision } from "@/lib/engine/overflow-decision";
import { planSummaryChunks } from "@/lib/engine/plan-summary-chunks";
import { resolveBudget } from "@/lib/engine/resolve-budget";
import { shouldAutoCompact } from "@/lib/engine/should-auto-compact";
import { turnsSinceCompaction } from "@/lib/engine/turns-since-compaction";
import { codeOf, ledger } from "./helpers";

describe("budget policy", () => {
  it("[R53] auto-compaction fires at 80% of the window, counting message and reserved output", () => {
    const at = (renderedTokens: number) =>
      shouldAutoCompact({
        renderedTokens,
        newMessageTokens: 50,
        reservedOutput: 150,
        window: 1000,
      });
    expect(at(599)).toBe(false);
    expect(at(600)).toBe(true);
    expect(at(900)).toBe(true);
    // Exact at awkward windows: 80% of 1001 is 800.8.
    const w = (r: number) =>
      shouldAutoCompact({
        renderedTokens: r,
        newMessageTokens: 0,
        reservedOutput: 0,
        window: 1001,
      });
    expect(w(800)).toBe(false);
    expect(w(801)).toBe(true);
  });

  it("[R54] settings override the server, the server overrides the model registry", () => {
    expect(resolveBudget({ modelWindow: 10_000 })).toEqual({
      window: 10_000,
      keepRecentTokens: 2_000,
      reservedOutput: 1_000,
      autoCompact: true,
    });
    expect(resolveBudget({ modelWindow: 10_000, serverWindow: 8_000 }).window).toBe(8_000);
    expect(
      resolveBudget({
        modelWindow: 10_000,
        serverWindow: 8_000,
        serverKeepRecentTokens: 900,
        settings: { contextWindow: 4_000, keepRecentTokens: 700, autoCompact: false },
      }),
    ).toEqual({ window: 4_000, keepRecentTokens: 700, reservedOutput: 400, autoCompact: false });
    expect(
      resolveBudget({ modelWindow: 10_000, serverKeepRecentTokens: 900 }).keepRecentTokens,
    ).toBe(900);
  });

  it("[R54] the kept tail is clamped to half the window; the reserve to 4096; bad windows refused", () => {
    expect(
      resolveBudget({ modelWindow: 1_000, settings: { keepRecentTokens: 900 } }).keepRecentTokens,
    ).toBe(500);
    expect(resolveBudget({ modelWindow: 200_000 }).reservedOutput).toBe(4096);
    expect(codeOf(() => resolveBudget({ modelWindow: 0 }))).toBe("invalid_request");
    expect(codeOf(() => resolveBudget({ modelWindow: 1.5 }))).toBe("invalid_request");
  });
});

describe("auto-compaction guards", () => {
  const base: AutoCompactInput = {
    renderedTokens: 900,
    newMessageTokens: 10,
    reservedOutput: 50,
    window: 1000,
    enabled: true,
    compactedThisTurn: false,
    latch: null,
    turnsSinceCompaction: null,
  };

  it("[R53] under the threshold or switched off, nothing happens", () => {
    expect(autoCompactDecision(base)).toEqual({ kind: "compact" });
    expect(autoCompactDecision({ ...base, renderedTokens: 100 })).toEqual({
      kind: "skip",
      reason: "under_threshold",
    });
    expect(autoCompactDecision({ ...base, enabled: false })).toEqual({
      kind: "skip",
      reason: "disabled",
    });
  });

  it("[R56] after a failed attempt, auto waits until the context grew by 5% of the window", () => {
    const latch = latchAfterFailure(900);
    expect(latch).toEqual({ failedAtTokens: 900 });
    expect(autoCompactDecision({ ...base, latch })).toEqual({ kind: "skip", reason: "latched" });
    expect(autoCompactDecision({ ...base, latch, renderedTokens: 949 })).toEqual({
      kind: "skip",
      reason: "latched",
    });
    expect(autoCompactDecision({ ...base, latch, renderedTokens: 950 })).toEqual({
      kind: "compact",
    });
    expect(latchHolds(null, 0, 1000)).toBe(false);
    expect(latchHolds({ failedAtTokens: tokens(0) }, 49, 1000)).toBe(true);
  });

  it("[R57] firing again within 3 user turns of the last compaction is thrash", () => {
    expect(THRASH_TURNS).toBe(3);
    const thrash = autoCompactDecision({ ...base, turnsSinceCompaction: 2 });
    expect(thrash.kind).toBe("thrash");
    expect(thrash.kind === "thrash" ? thrash.message : "").toMatch(/keepRecentTokens/);
    expect(autoCompactDecision({ ...base, turnsSinceCompaction: 3 })).toEqual({ kind: "compact" });
  });

  it("[R57] turns since compaction count the user turns added after the summary's kept tail", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4 u5 a5");
    const s = l.summary("S", ["u1", "a1", "u2", "a2"], "R", { metadata: { kept_user_turns: 1 } });
    // u3 was kept verbatim when S was written; u4 and u5 came after.
    expect(turnsSinceCompaction(l.render("a5", "S"), s)).toBe(2);
    expect(turnsSinceCompaction(l.render("a5", "S"), null)).toBeNull();
    l.chain("a1", "u2b");
    expect(turnsSinceCompaction(l.render("u2b", "S"), s)).toBeNull();
  });

  it("[R58] at most one compaction per turn; overflow compacts and retries once", () => {
    expect(autoCompactDecision({ ...base, compactedThisTurn: true })).toEqual({
      kind: "skip",
      reason: "already_compacted",
    });
    expect(overflowDecision({ compactedThisTurn: false, retried: false })).toEqual({
      kind: "compact_and_retry",
    });
    const again = overflowDecision({ compactedThisTurn: true, retried: true });
    expect(again.kind).toBe("give_up");
    expect(again.kind === "give_up" ? again.message : "").toMatch(/larger window/);
    expect(overflowDecision({ compactedThisTurn: true, retried: false }).kind).toBe("give_up");
  });
});

describe("chunked summarising", () => {
  it("[R59] a slice too big for the summariser is split into chunks that each fit", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4 a4");
    const slice = l.render("a4").messages.slice(1);
    // 14 tokens a message; capacity = 100 - 10 - 2 * 10 = 70: five messages a chunk.
    const chunks = planSummaryChunks(slice, { window: 100, promptTokens: 10, outputTokens: 10 });
    expect(chunks.map((c) => c.messages.map((m) => m.id))).toEqual([
      ["u1", "a1", "u2", "a2", "u3"],
      ["a3", "u4", "a4"],
    ]);
    expect(chunks.every((c) => c.tokens <= 70 && !c.oversized)).toBe(true);
    expect(
      planSummaryChunks(slice, { window: 1000, promptTokens: 10, outputTokens: 10 }),
    ).toHaveLength(1);
  });

  it("[R59] tool pairs stay together; a message bigger than a chunk is flagged", () => {
    const l = ledger().chain("R", "u1 a1 u2");
    l.add("a2", "assistant", "u2", { toolCalls: ["c1"] });
    l.add("t2", "tool", "a2", { toolCallId: "c1" });
    l.add("u3", "user", "t2", { tokens: 500 });
    const slice = l.render("u3").messages.slice(1);
    const chunks = planSummaryChunks(slice, { window: 90, promptTokens: 10, outputTokens: 10 });
    expect(chunks.map((c) => [c.messages.map((m) => m.id), c.oversized])).toEqual([
      [["u1", "a1", "u2"], false],
      [["a2", "t2"], false],
      [["u3"], true],
    ]);
    expect(
      codeOf(() => planSummaryChunks(slice, { window: 20, promptTokens: 10, outputTokens: 5 })),
    ).toBe("invalid_request");
  });
});
