/**
 * Context-overflow detection. Servers report "the prompt is too long" in many dialects; this
 * table is the one place that knows them, so adding a server is one row, not a new branch in
 * the error mapper. Each row names the server it was seen from (for the docs and tests).
 */

export interface OverflowSignal {
  readonly status: number | undefined;
  /** `error.code` from the body (OpenAI puts a string here, vLLM and llama.cpp a number). */
  readonly code: unknown;
  /** `error.type` from the body. */
  readonly type: unknown;
  /** Every human-readable text the failure carried: SDK message and raw body. */
  readonly text: string;
}

interface OverflowRule {
  readonly seenFrom: string;
  readonly matches: (signal: OverflowSignal) => boolean;
}

const byCode =
  (code: string) =>
  (s: OverflowSignal): boolean =>
    s.code === code;
const byType =
  (type: string) =>
  (s: OverflowSignal): boolean =>
    s.type === type;
const byText =
  (pattern: RegExp) =>
  (s: OverflowSignal): boolean =>
    pattern.test(s.text);

/** Exported for the docs test; match through `isContextOverflow`. */
export const OVERFLOW_RULES: readonly OverflowRule[] = [
  { seenFrom: "OpenAI", matches: byCode("context_length_exceeded") },
  { seenFrom: "llama.cpp server", matches: byType("exceed_context_size_error") },
  // OpenAI, vLLM, OpenRouter, DeepSeek, Groq: "This model's maximum context length is N".
  { seenFrom: "vLLM / OpenAI / OpenRouter", matches: byText(/maximum context length/i) },
  // llama.cpp: "the request exceeds the available context size" / "(N tokens) exceeds the
  // available context size (M tokens)".
  { seenFrom: "llama.cpp server", matches: byText(/exceeds the available context size/i) },
  { seenFrom: "llama.cpp server (old)", matches: byText(/context size has been exceeded/i) },
  // Ollama: "the input length exceeds the context length" (sometimes with status 500).
  { seenFrom: "Ollama", matches: byText(/input (length )?exceeds (the )?(maximum )?context/i) },
  { seenFrom: "LM Studio", matches: byText(/context length of only \d+ tokens/i) },
  { seenFrom: "Mistral", matches: byText(/too large for model with \d+ maximum context length/i) },
  { seenFrom: "TGI", matches: byText(/`inputs` tokens \+ `max_new_tokens` must be <=/i) },
  { seenFrom: "Gemini (OpenAI mode)", matches: byText(/exceeds the maximum number of tokens/i) },
  { seenFrom: "Anthropic-compatible", matches: byText(/prompt is too long/i) },
  { seenFrom: "generic", matches: byText(/context[ _](length|window)[ _](is )?exceeded/i) },
  { seenFrom: "generic", matches: byText(/reduce the length of the (messages|prompt|input)/i) },
  // A body too large for the server is the same problem one layer down.
  { seenFrom: "HTTP 413", matches: (s) => s.status === 413 },
];

/**
 * True when a failure means "the prompt does not fit". A 429 never is: rate-limit texts
 * mention tokens too ("tokens per min"), and waiting, not compacting, is the cure.
 */
export function isContextOverflow(signal: OverflowSignal): boolean {
  if (signal.status === 429) return false;
  return OVERFLOW_RULES.some((rule) => rule.matches(signal));
}
