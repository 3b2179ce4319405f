import { describe, expect, it } from "vitest";
import { DEFAULT_CONTEXT_WINDOW, lookupModel } from "@/lib/llm/model-registry";

describe("model registry", () => {
  it.each([
    ["gpt-4o", "gpt-4o", 128_000, 16_384],
    ["gpt-4o-2024-08-06", "gpt-4o", 128_000, 16_384],
    ["gpt-4o-mini", "gpt-4o-mini", 128_000, 16_384],
    ["openai/gpt-4o-mini", "gpt-4o-mini", 128_000, 16_384],
    ["gpt-4.1-mini", "gpt-4.1", 1_047_576, 32_768],
    ["gpt-5", "gpt-5", 400_000, 128_000],
    ["gpt-5-mini", "gpt-5", 400_000, 128_000],
    ["gpt-5-chat-latest", "gpt-5-chat", 128_000, 16_384],
    ["gpt-4", "gpt-4", 8_192, 8_192],
    ["gpt-3.5-turbo", "gpt-3.5-turbo", 16_385, 4_096],
    ["o1", "o-series", 200_000, 100_000],
    ["o1-mini", "o1-mini", 128_000, 65_536],
    ["o3-mini", "o-series", 200_000, 100_000],
    ["o4-mini", "o-series", 200_000, 100_000],
    ["llama3.1:8b", "llama 3.1+", 131_072, 8_192],
    ["meta-llama/Llama-3.3-70B-Instruct", "llama 3.1+", 131_072, 8_192],
    ["llama3:8b", "llama 3", 8_192, 4_096],
    ["qwen2.5:7b", "qwen2.5", 32_768, 8_192],
    ["Qwen/Qwen2.5-Coder-32B-Instruct", "qwen2.5", 32_768, 8_192],
    ["qwen3:30b-a3b", "qwen3", 32_768, 8_192],
    ["mistral:7b", "mistral", 32_768, 8_192],
    ["mistral-large-latest", "mistral-large", 131_072, 8_192],
    ["mixtral:8x7b", "mixtral", 32_768, 8_192],
    ["mixtral-8x22b-instruct", "mixtral 8x22b", 65_536, 8_192],
    ["deepseek-chat", "deepseek", 65_536, 8_192],
    ["deepseek-r1:14b", "deepseek-r1", 65_536, 32_768],
    ["offline model", "offline model", 8_192, 1_024],
  ])("%s → %s", (name, family, contextWindow, maxOutputTokens) => {
    expect(lookupModel(name)).toMatchObject({
      model: name,
      family,
      contextWindow,
      maxOutputTokens,
      known: true,
      source: "registry",
      notice: undefined,
    });
  });

  it("an unknown model gets the conservative default and a visible notice", () => {
    const limits = lookupModel("my-finetune-v2");
    expect(limits).toMatchObject({
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      known: false,
      family: undefined,
      source: "default",
    });
    expect(DEFAULT_CONTEXT_WINDOW).toBe(8192);
    expect(limits.notice).toMatch(/Unknown model "my-finetune-v2".*8,192/);
  });

  it("overrides apply in order, later winning; undefined fields are ignored", () => {
    const env = { contextWindow: 16_000 };
    const session = { contextWindow: 4_000, maxOutputTokens: 500 };
    expect(lookupModel("gpt-4o", env)).toMatchObject({ contextWindow: 16_000, source: "override" });
    expect(lookupModel("gpt-4o", env, session)).toMatchObject({
      contextWindow: 4_000,
      maxOutputTokens: 500,
    });
    expect(lookupModel("gpt-4o", { contextWindow: undefined }, undefined)).toMatchObject({
      contextWindow: 128_000,
      source: "registry",
    });
  });

  it("an override silences the unknown-model notice but keeps known:false", () => {
    const limits = lookupModel("my-finetune-v2", { contextWindow: 32_000 });
    expect(limits).toMatchObject({ contextWindow: 32_000, known: false, notice: undefined });
  });

  it("max output never exceeds the context window", () => {
    expect(lookupModel("gpt-5", { contextWindow: 10_000 }).maxOutputTokens).toBe(10_000);
  });
});
