import { describe, expect, it } from "vitest";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { encode as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { contextTokens, MESSAGE_OVERHEAD_TOKENS, messageTokens } from "@/lib/engine/context-tokens";
import { SUMMARY_PREFIX, SUMMARY_PREFIX_TOKENS } from "@/lib/engine/render-message";
import { ledger } from "./helpers";

describe("token cost of a rendering", () => {
  it("[R17] sums each message's stored token count plus a fixed per-message overhead", () => {
    const l = ledger().chain("R", "u1", { tokens: 7 }).chain("u1", "a1", { tokens: 30 });
    const r = l.render("a1");
    // ROOT has the default 10 tokens.
    expect(contextTokens(r.messages)).toBe(10 + 7 + 30 + 3 * MESSAGE_OVERHEAD_TOKENS);
    expect(messageTokens(r.messages[1]!)).toBe(7 + MESSAGE_OVERHEAD_TOKENS);
  });

  it("[R17] never re-tokenises: the stored count is trusted even when the text disagrees", () => {
    const l = ledger().chain("R", "u1", { tokens: 3, content: "word ".repeat(500) });
    expect(contextTokens(l.render("u1").messages)).toBe(10 + 3 + 2 * MESSAGE_OVERHEAD_TOKENS);
  });

  it("[R17] a summary costs its own tokens plus the prefix constant", () => {
    const l = ledger().chain("R", "u1 a1 u2");
    l.summary("S", ["u1", "a1"], "R", { tokens: 12 });
    const s = l.render("u2", "S").messages[1]!;
    expect(s.tokenCount).toBe(12 + SUMMARY_PREFIX_TOKENS);
  });

  it("[R17] the prefix constant is not below the prefix's real count in o200k and cl100k", () => {
    expect(SUMMARY_PREFIX_TOKENS).toBeGreaterThanOrEqual(o200k(SUMMARY_PREFIX).length);
    expect(SUMMARY_PREFIX_TOKENS).toBeGreaterThanOrEqual(cl100k(SUMMARY_PREFIX).length);
    expect(SUMMARY_PREFIX_TOKENS).toBeLessThanOrEqual(o200k(SUMMARY_PREFIX).length + 5);
  });
});
