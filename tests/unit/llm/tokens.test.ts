import { describe, expect, it } from "vitest";
import {
  countPromptTokens,
  countTokens,
  encodingForModel,
  MESSAGE_OVERHEAD_TOKENS,
  promptCost,
  truncateToTokens,
} from "@/lib/llm/tokens";

describe("tokens", () => {
  it("counts with a real BPE: known small cases", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("hello world", "gpt-4")).toBe(2);
  });

  it("grows roughly with text length (about 4 characters a token for English)", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(100);
    const n = countTokens(text);
    expect(n).toBeGreaterThan(text.length / 6);
    expect(n).toBeLessThan(text.length / 3);
  });

  it("selects cl100k for gpt-3.5 and gpt-4 (non-o) families, o200k for the rest", () => {
    for (const m of [
      "gpt-3.5-turbo",
      "gpt-4",
      "gpt-4-0613",
      "gpt-4-turbo",
      "gpt-4-32k",
      "openai/gpt-4",
    ]) {
      expect(encodingForModel(m), m).toBe("cl100k_base");
    }
    for (const m of [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4.1",
      "gpt-4.5-preview",
      "gpt-5",
      "o3-mini",
      "llama3.1:8b",
      "qwen3",
    ]) {
      expect(encodingForModel(m), m).toBe("o200k_base");
    }
    expect(encodingForModel()).toBe("o200k_base");
  });

  it("the two vocabularies really differ", () => {
    const text = "Ünïcödé façade — 日本語のテキスト and some code: const x = [1, 2, 3];";
    expect(countTokens(text, "gpt-4")).not.toBe(countTokens(text, "gpt-4o"));
  });

  it("treats special-token text typed by a user as plain text", () => {
    expect(() => countTokens("a <|endoftext|> b")).not.toThrow();
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(3);
  });

  it("costs a rendering from stored counts plus per-message overhead", () => {
    expect(MESSAGE_OVERHEAD_TOKENS).toBe(4);
    expect(promptCost([10, 20, 30])).toBe(60 + 3 * MESSAGE_OVERHEAD_TOKENS);
    expect(promptCost([])).toBe(0);
    const messages = [{ content: "hello world" }, { content: "" }];
    expect(countPromptTokens(messages)).toBe(promptCost([2, 0]));
  });

  it("truncates to a token budget on a token boundary", () => {
    const text = "one two three four five six seven eight";
    const cut = truncateToTokens(text, 3);
    expect(cut).toBe("one two three");
    expect(truncateToTokens(text, 100)).toBe(text);
    expect(truncateToTokens(text, 0)).toBe("");
    // Never leaves half a multi-byte character behind.
    expect(truncateToTokens("🎉🎉🎉🎉", 1)).not.toContain("\uFFFD");
  });
});
