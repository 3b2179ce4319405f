/**
 * Context window and maximum output per model family. Names are matched after stripping a
 * router prefix ("openai/", "meta-llama/") so the same row serves OpenAI, OpenRouter, vLLM
 * and Ollama spellings. Rows are ordered most specific first; the first match wins.
 *
 * Local servers run models with whatever window they were started with (Ollama's
 * `num_ctx`, llama.cpp's `--ctx-size`); the table gives the model's native window, and the
 * operator overrides it with SPINDLE_CONTEXT_WINDOW or per session.
 */

export interface ModelLimits {
  /** The name that was looked up. */
  readonly model: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** False when no row matched and the conservative default stands in. */
  readonly known: boolean;
  /** The table row's family, e.g. "gpt-4o"; undefined when unknown. */
  readonly family: string | undefined;
  /** Where `contextWindow` came from. */
  readonly source: "registry" | "default" | "override";
  /** A user-facing line for the UI when the window is a guess; undefined otherwise. */
  readonly notice: string | undefined;
  /** Whether the model calls functions (OpenAI `tools`); false for unknown models. */
  readonly tools: boolean;
  /**
   * Whether the model reads images (image content parts); false for unknown models. A
   * session's `vision` setting overrides it, like `tools` (docs/spec.md "Attachments").
   */
  readonly vision: boolean;
}

/** Env (SPINDLE_CONTEXT_WINDOW) or session settings; undefined fields are ignored. */
export interface ModelOverrides {
  readonly contextWindow?: number | undefined;
  readonly maxOutputTokens?: number | undefined;
}

interface Row {
  readonly family: string;
  readonly pattern: RegExp;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}

const K = 1024;

/** Unknown models get a window small enough that any real model has at least this much. */
export const DEFAULT_CONTEXT_WINDOW = 8 * K;
export const DEFAULT_MAX_OUTPUT_TOKENS = 2 * K;

const ROWS: readonly Row[] = [
  { family: "offline model", pattern: /^offline model$/, contextWindow: 8 * K, maxOutputTokens: K },
  // OpenAI
  {
    family: "gpt-5-chat",
    pattern: /^gpt-5(\.\d+)?-chat/,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
  },
  { family: "gpt-5", pattern: /^gpt-5/, contextWindow: 400_000, maxOutputTokens: 128_000 },
  { family: "gpt-4.1", pattern: /^gpt-4\.1/, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  {
    family: "gpt-4o-mini",
    pattern: /^gpt-4o-mini/,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
  },
  {
    family: "gpt-4o",
    pattern: /^(chatgpt-)?gpt-4o|^chatgpt-4o/,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
  },
  {
    family: "gpt-4-turbo",
    pattern: /^gpt-4-(turbo|\d{4}-preview|vision)/,
    contextWindow: 128_000,
    maxOutputTokens: 4_096,
  },
  { family: "gpt-4-32k", pattern: /^gpt-4-32k/, contextWindow: 32_768, maxOutputTokens: 8_192 },
  { family: "gpt-4", pattern: /^gpt-4(-\d{4})?$/, contextWindow: 8_192, maxOutputTokens: 8_192 },
  {
    family: "gpt-3.5-turbo",
    pattern: /^gpt-3\.5-turbo/,
    contextWindow: 16_385,
    maxOutputTokens: 4_096,
  },
  { family: "o1-mini", pattern: /^o1-mini/, contextWindow: 128_000, maxOutputTokens: 65_536 },
  { family: "o1-preview", pattern: /^o1-preview/, contextWindow: 128_000, maxOutputTokens: 32_768 },
  {
    family: "o-series",
    pattern: /^o[134](-mini|-pro)?(\b|-|$)/,
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
  },
  { family: "gpt-oss", pattern: /^gpt-oss/, contextWindow: 131_072, maxOutputTokens: 32_768 },
  // Meta Llama: 3.1+ carry 128k natively, 3.0 only 8k.
  {
    family: "llama 3.1+",
    pattern: /^(meta-)?llama-?3\.[1-9]/,
    contextWindow: 131_072,
    maxOutputTokens: 8_192,
  },
  { family: "llama 3", pattern: /^(meta-)?llama-?3/, contextWindow: 8_192, maxOutputTokens: 4_096 },
  // Qwen
  { family: "qwen3", pattern: /^qwen-?3/, contextWindow: 32_768, maxOutputTokens: 8_192 },
  { family: "qwen2.5", pattern: /^qwen-?2\.5/, contextWindow: 32_768, maxOutputTokens: 8_192 },
  // Mistral
  {
    family: "mistral-large",
    pattern: /^mistral-large/,
    contextWindow: 131_072,
    maxOutputTokens: 8_192,
  },
  {
    family: "mistral-nemo",
    pattern: /^(open-)?mistral-nemo/,
    contextWindow: 128_000,
    maxOutputTokens: 8_192,
  },
  {
    family: "mixtral 8x22b",
    pattern: /^(open-)?mixtral-?8x22b/,
    contextWindow: 65_536,
    maxOutputTokens: 8_192,
  },
  { family: "mixtral", pattern: /^(open-)?mixtral/, contextWindow: 32_768, maxOutputTokens: 8_192 },
  { family: "mistral", pattern: /^(open-)?mistral/, contextWindow: 32_768, maxOutputTokens: 8_192 },
  // DeepSeek: the hosted API serves 64k; R1 answers are long, hence the larger output.
  {
    family: "deepseek-r1",
    pattern: /^deepseek-(r1|reasoner)/,
    contextWindow: 65_536,
    maxOutputTokens: 32_768,
  },
  { family: "deepseek", pattern: /^deepseek/, contextWindow: 65_536, maxOutputTokens: 8_192 },
];

/**
 * Known families that do not call functions (or do so too unreliably to offer them): the
 * offline model, the o1 previews, Llama 3.0, the first Mixtral and DeepSeek's reasoner.
 */
const NO_TOOLS = new Set([
  "offline model",
  "o1-mini",
  "o1-preview",
  "llama 3",
  "mixtral",
  "deepseek-r1",
]);

/** Known families that read images (OpenAI's vision-capable chat models). */
const VISION = new Set(["gpt-5-chat", "gpt-5", "gpt-4.1", "gpt-4o-mini", "gpt-4o", "gpt-4-turbo"]);

/** Lower-case, router prefix stripped, Ollama's ":tag" kept apart from the name. */
function normalise(model: string): string {
  const lower = model.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf("/") + 1).replace(/:.*$/, "");
}

function firstDefined(
  layers: readonly (ModelOverrides | undefined)[],
  key: keyof ModelOverrides,
): number | undefined {
  let value: number | undefined;
  for (const layer of layers) {
    const v = layer?.[key];
    if (v !== undefined && Number.isFinite(v) && v > 0) value = v;
  }
  return value;
}

/**
 * Limits for `model`. Overrides are applied in order, later ones winning: pass
 * `lookupModel(name, envOverrides, sessionSettings)`.
 */
export function lookupModel(
  model: string,
  ...overrides: readonly (ModelOverrides | undefined)[]
): ModelLimits {
  const name = normalise(model);
  const row = ROWS.find((r) => r.pattern.test(name));
  const contextOverride = firstDefined(overrides, "contextWindow");
  const outputOverride = firstDefined(overrides, "maxOutputTokens");
  const contextWindow = contextOverride ?? row?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const maxOutputTokens = Math.min(
    outputOverride ?? row?.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    contextWindow,
  );
  const source = contextOverride !== undefined ? "override" : row ? "registry" : "default";
  const notice =
    source === "default"
      ? `Unknown model "${model}": assuming a ${DEFAULT_CONTEXT_WINDOW.toLocaleString("en-US")}-token ` +
        "context window. Set SPINDLE_CONTEXT_WINDOW or the session's context window to change it."
      : undefined;
  return {
    model,
    contextWindow,
    maxOutputTokens,
    known: row !== undefined,
    family: row?.family,
    source,
    notice,
    tools: row !== undefined && !NO_TOOLS.has(row.family),
    vision: row !== undefined && VISION.has(row.family),
  };
}
