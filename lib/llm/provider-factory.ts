/**
 * Builds the process's providers from the validated server `Config`: the OpenAI-compatible
 * client when an endpoint is configured, the offline model otherwise. This is the one place
 * that decides which, so /api/health, the dispatcher and compaction always agree.
 */
import type { Config } from "@/lib/config/env";
import { createExtractiveSummarizer } from "./extractive-summarizer";
import { createLlmSummarizer } from "./llm-summarizer";
import { createOfflineModel, OFFLINE_CONTEXT_WINDOW, OFFLINE_MODEL_ID } from "./offline-model";
import {
  createOpenAIProvider,
  displayBaseUrl,
  type OpenAIProviderOptions,
} from "./openai-provider";
import "./server-only";
import type { ChatProvider, ProviderDescription, Summarizer } from "./types";

/** Used when an endpoint is configured but SPINDLE_MODEL is not. */
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export interface Providers {
  readonly chat: ChatProvider;
  readonly summarizer: Summarizer;
  /** The model summaries are written with: SPINDLE_SUMMARY_MODEL, else the chat model. */
  readonly summaryModel: string;
  /** For /api/health and the UI. Contains the base URL at most; never the API key. */
  describe(): ProviderDescription;
}

/** Knobs tests (and only tests) turn; production takes the defaults. */
export type ProviderTuning = Pick<
  OpenAIProviderOptions,
  "retry" | "firstTokenTimeoutMs" | "idleTimeoutMs" | "fetch"
>;

type ProviderConfig = Pick<
  Config,
  "openai" | "model" | "summaryModel" | "offlineDelayMs" | "contextWindow"
>;

export function createProviders(config: ProviderConfig, tuning: ProviderTuning = {}): Providers {
  if (config.openai === undefined) {
    const chat = createOfflineModel({
      contextWindow: config.contextWindow ?? OFFLINE_CONTEXT_WINDOW,
      delayMs: config.offlineDelayMs,
    });
    const description: ProviderDescription = {
      kind: "offline",
      label: OFFLINE_MODEL_ID,
      model: OFFLINE_MODEL_ID,
      summaryModel: OFFLINE_MODEL_ID,
    };
    return {
      chat,
      summarizer: createExtractiveSummarizer(),
      summaryModel: OFFLINE_MODEL_ID,
      describe: () => description,
    };
  }
  const model = config.model ?? DEFAULT_OPENAI_MODEL;
  const summaryModel = config.summaryModel ?? model;
  const chat = createOpenAIProvider({
    baseUrl: config.openai.baseUrl,
    apiKey: config.openai.apiKey,
    model,
    ...tuning,
  });
  const description: ProviderDescription = {
    kind: "openai-compatible",
    label: chat.label,
    model,
    summaryModel,
    baseUrl: displayBaseUrl(config.openai.baseUrl),
  };
  return {
    chat,
    summarizer: createLlmSummarizer({ provider: chat, model: summaryModel }),
    summaryModel,
    describe: () => description,
  };
}
