/**
 * Token counting with a real BPE tokenizer (gpt-tokenizer). A node's content is counted once,
 * when it is sealed, and the count is stored; the cost of a rendering is the sum of stored
 * counts plus `MESSAGE_OVERHEAD_TOKENS` per message, never a re-tokenisation of the whole
 * context per turn.
 *
 * Models outside OpenAI's families (Llama, Qwen, Mistral…) use their own vocabularies; o200k
 * is the stand-in for them, typically within ~10–20% of the true count, which the 80%
 * auto-compact threshold absorbs.
 */
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { MESSAGE_OVERHEAD_TOKENS } from "@/lib/engine/context-tokens";
import { tokens, type Tokens } from "@/lib/engine/ids";

export type EncodingName = "o200k_base" | "cl100k_base";

/**
 * Per-message framing in the chat format. The engine owns the number (its `contextTokens`
 * prices renderings); it is re-exported here so provider-side costing cannot drift from it.
 */
export { MESSAGE_OVERHEAD_TOKENS };

/**
 * User text is counted as text: a literal "<|endoftext|>" typed by a user is ordinary
 * characters, not a control token (and must not make counting throw).
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Strips a router prefix ("openai/gpt-4", "azure/gpt-4o") before matching a family. */
function bareModelName(model: string): string {
  const lower = model.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf("/") + 1);
}

/**
 * gpt-3.5 and gpt-4 (including -turbo and -32k) use cl100k; every later OpenAI model (gpt-4o,
 * gpt-4.1, gpt-4.5, gpt-5, the o-series) and every unknown model uses o200k.
 */
export function encodingForModel(model?: string): EncodingName {
  if (model === undefined) return "o200k_base";
  const name = bareModelName(model);
  if (/^gpt-3\.5/.test(name)) return "cl100k_base";
  if (/^gpt-4(?![o.\d])/.test(name)) return "cl100k_base";
  if (/^text-embedding-(3|ada)/.test(name)) return "cl100k_base";
  return "o200k_base";
}

function encoderFor(model?: string): typeof o200k {
  return encodingForModel(model) === "cl100k_base" ? cl100k : o200k;
}

/** Tokens in `text` for `model`'s vocabulary (o200k when the model is unknown or absent). */
export function countTokens(text: string, model?: string): Tokens {
  if (text.length === 0) return tokens(0);
  return tokens(encoderFor(model).countTokens(text, AS_PLAIN_TEXT));
}

/**
 * The prompt cost of messages whose content counts are already known: the sum plus framing,
 * exactly as the engine's `contextTokens` prices a rendering.
 */
export function promptCost(storedCounts: readonly number[]): Tokens {
  const sum = storedCounts.reduce((total, n) => total + n, 0);
  return tokens(sum + storedCounts.length * MESSAGE_OVERHEAD_TOKENS);
}

/** Counts and costs raw messages at once (the offline model's view of a prompt). */
export function countPromptTokens(
  messages: readonly { readonly content: string }[],
  model?: string,
): Tokens {
  return promptCost(messages.map((m) => countTokens(m.content, model)));
}

/**
 * The longest prefix of `text` within `maxTokens`. Cuts on a token boundary and drops a
 * trailing partial character, so the result is always valid text.
 */
export function truncateToTokens(text: string, maxTokens: number, model?: string): string {
  if (maxTokens <= 0) return "";
  const encoder = encoderFor(model);
  const ids = encoder.encode(text, AS_PLAIN_TEXT);
  if (ids.length <= maxTokens) return text;
  return encoder.decode(ids.slice(0, maxTokens)).replace(/\uFFFD+$/, "");
}
