/**
 * The provider layer's public surface. Server-only: nothing here may reach a client bundle.
 */
export type {
  ChatMessage,
  ChatProvider,
  ChatRequest,
  ChatRole,
  FinishReason,
  ModelInfo,
  ProviderDescription,
  ProviderKind,
  StreamEvent,
  Summarizer,
  SummaryRequest,
  ToolCall,
  ToolSpec,
  Usage,
} from "./types";
export { ProviderError, isProviderError, type ProviderErrorCode } from "./provider-error";
export { collectStream, type CollectedStream } from "./collect-stream";
export { createOpenAIProvider, type OpenAIProviderOptions } from "./openai-provider";
export {
  createOfflineModel,
  describeContext,
  OFFLINE_CONTEXT_WINDOW,
  OFFLINE_MODEL_ID,
} from "./offline-model";
export { createExtractiveSummarizer } from "./extractive-summarizer";
export { createLlmSummarizer } from "./llm-summarizer";
export { SUMMARY_PREFIX, summaryMessageContent, summaryTextOf } from "./summary-marker";
export {
  countPromptTokens,
  countTokens,
  encodingForModel,
  MESSAGE_OVERHEAD_TOKENS,
  promptCost,
  truncateToTokens,
} from "./tokens";
export {
  DEFAULT_CONTEXT_WINDOW,
  lookupModel,
  type ModelLimits,
  type ModelOverrides,
} from "./model-registry";
export {
  createProviders,
  DEFAULT_OPENAI_MODEL,
  type ProviderTuning,
  type Providers,
} from "./provider-factory";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy";
