import { describe, expect, it } from "vitest";
import { priceOf, pricesApply } from "@/lib/llm/model-prices";

describe("[R203] list prices", () => {
  it("[R203] known OpenAI models have a price, the most specific row first; others none", () => {
    expect(priceOf("gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf("gpt-4o-mini-2024-07-18")).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf("gpt-4o")).toEqual({ input: 2.5, output: 10 });
    expect(priceOf("gpt-4.1-nano")).toEqual({ input: 0.1, output: 0.4 });
    expect(priceOf("GPT-5-mini")).toEqual({ input: 0.25, output: 2 });
    for (const unknown of ["llama3.1:8b", "offline model", "gpt-4o-audio-preview", "o1-pro"]) {
      expect(priceOf(unknown), unknown).toBeNull();
    }
  });

  it("[R203] prices apply on OpenAI's API only, never on a local or other endpoint", () => {
    expect(pricesApply("https://api.openai.com/v1")).toBe(true);
    expect(pricesApply("http://127.0.0.1:11434/v1")).toBe(false);
    expect(pricesApply("https://openrouter.ai/api/v1")).toBe(false);
    expect(pricesApply("not a url")).toBe(false);
  });
});
