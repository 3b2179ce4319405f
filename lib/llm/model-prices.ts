/**
 * List prices of OpenAI's own API, in US dollars per million tokens (input, output), as
 * published on openai.com/api/pricing in August 2025. Cached-input and batch discounts are
 * not applied. They describe OpenAI's endpoint only: the same name served by Ollama, vLLM
 * or another router costs something else (or nothing), so a cost is shown only when
 * `OPENAI_BASE_URL` is OpenAI's API ({@link pricesApply}). Rows are matched most specific
 * first, after the same normalisation as the model registry.
 */

export interface ModelPrice {
  /** USD per 1,000,000 prompt tokens. */
  readonly input: number;
  /** USD per 1,000,000 completion tokens. */
  readonly output: number;
}

const PRICES: readonly { readonly pattern: RegExp; readonly price: ModelPrice }[] = [
  { pattern: /^gpt-5-nano/, price: { input: 0.05, output: 0.4 } },
  { pattern: /^gpt-5-mini/, price: { input: 0.25, output: 2 } },
  { pattern: /^gpt-5(-chat)?(-\d{4}-\d{2}-\d{2}|-latest)?$/, price: { input: 1.25, output: 10 } },
  { pattern: /^gpt-4\.1-nano/, price: { input: 0.1, output: 0.4 } },
  { pattern: /^gpt-4\.1-mini/, price: { input: 0.4, output: 1.6 } },
  { pattern: /^gpt-4\.1(-\d{4}-\d{2}-\d{2})?$/, price: { input: 2, output: 8 } },
  { pattern: /^gpt-4o-mini(-\d{4}-\d{2}-\d{2})?$/, price: { input: 0.15, output: 0.6 } },
  { pattern: /^gpt-4o(-\d{4}-\d{2}-\d{2})?$/, price: { input: 2.5, output: 10 } },
  { pattern: /^o4-mini(-\d{4}-\d{2}-\d{2})?$/, price: { input: 1.1, output: 4.4 } },
  { pattern: /^o3-mini(-\d{4}-\d{2}-\d{2})?$/, price: { input: 1.1, output: 4.4 } },
  { pattern: /^o3(-\d{4}-\d{2}-\d{2})?$/, price: { input: 2, output: 8 } },
  { pattern: /^gpt-3\.5-turbo(-0125)?$/, price: { input: 0.5, output: 1.5 } },
];

/** The list price of `model` on OpenAI's API, or null when the table does not know it. */
export function priceOf(model: string): ModelPrice | null {
  const name = model.trim().toLowerCase();
  return PRICES.find((row) => row.pattern.test(name))?.price ?? null;
}

/** Whether the configured endpoint is OpenAI's API, where these prices are charged. */
export function pricesApply(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}
