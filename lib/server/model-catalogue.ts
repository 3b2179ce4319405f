import type { ModelsAnswer } from "../http/schemas";
import { isProviderError } from "../llm/provider-error";
import { logProviderError, userMessage } from "../llm/user-message";
import { lookupModel } from "../llm/model-registry";
import { priceOf, pricesApply } from "../llm/model-prices";
import type { Providers } from "../llm/provider-factory";

/** How long one listing of the provider's models is reused (every chat page asks once). */
const FRESH_MS = 60_000;

const cache = new WeakMap<Providers, { readonly at: number; readonly answer: ModelsAnswer }>();

/**
 * The models the configured provider offers, each with what the model registry knows of it
 * (context window, function calling, list price on OpenAI's own API) ([R203]). A provider
 * that does not answer gives an empty list and the reason; a listing is reused for a minute
 * so opening chats does not ask the upstream every time.
 */
export async function modelCatalogue(
  providers: Providers,
  now: number,
  signal?: AbortSignal,
): Promise<ModelsAnswer> {
  const hit = cache.get(providers);
  if (hit && now - hit.at < FRESH_MS) return hit.answer;
  const description = providers.describe();
  const priced = description.baseUrl !== undefined && pricesApply(description.baseUrl);
  let ids: string[] = [];
  let error: string | null = null;
  try {
    ids = (await providers.chat.listModels(signal)).map((m) => m.id);
  } catch (e) {
    if (isProviderError(e)) {
      logProviderError("model list", e);
      error = userMessage(e);
    } else {
      console.warn("[spindle] model list failed", e);
      error = "The provider did not list its models.";
    }
  }
  const limits = lookupModel(description.model);
  const answer: ModelsAnswer = {
    provider: description,
    models: [...new Set(ids)].sort(byName).map((id) => {
      const entry = lookupModel(id);
      return {
        id,
        contextWindow: entry.contextWindow,
        tools: entry.tools,
        vision: entry.vision,
        known: entry.known,
        price: priced ? priceOf(id) : null,
      };
    }),
    error,
    contextWindow: limits.contextWindow,
    notice: limits.notice ?? null,
  };
  // A failed listing is not kept: the next page asks again.
  if (error === null) cache.set(providers, { at: now, answer });
  return answer;
}

const byName = (a: string, b: string) => a.localeCompare(b, "en");
