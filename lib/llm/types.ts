/**
 * The provider layer's vocabulary: what goes into a chat call and what comes out of it.
 * Everything here is plain data so the dispatcher can pass it through without knowing which
 * provider (the OpenAI-compatible client or the offline model) is behind it.
 */
import type { Tokens } from "@/lib/engine/ids";
import type { AttachmentRef } from "@/lib/engine/types";

export type ChatRole = "system" | "user" | "assistant" | "tool";

/** A function call the model asked for, after its deltas were joined. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON argument string, exactly as the model produced it (may be invalid JSON). */
  readonly arguments: string;
}

/**
 * One prompt message. Invariants: `tool_call_id` is set exactly on `tool` messages;
 * `tool_calls` only appears on `assistant` messages.
 */
export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
  readonly tool_calls?: readonly ToolCall[];
  readonly tool_call_id?: string;
  /**
   * User messages: the files the node carries, not yet read (lib/view/attach-files.ts turns
   * them into inline text and `images` before a provider sees the message).
   */
  readonly attachments?: readonly AttachmentRef[];
  /** User messages: images sent as image content parts after the text. */
  readonly images?: readonly ChatImage[];
}

/** An image content part: its type and bytes (base64). */
export interface ChatImage {
  readonly mime: string;
  readonly base64: string;
}

/** A function the model may call; `parameters` is a JSON Schema object. */
export interface ToolSpec {
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  /** The user's Stop: the stream ends cleanly with `finish{reason:"aborted"}`. */
  readonly signal?: AbortSignal;
  /** Overrides the provider's default model for this call (per-session `/model`). */
  readonly model?: string;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
}

export interface Usage {
  readonly promptTokens: Tokens;
  readonly completionTokens: Tokens;
  readonly totalTokens: Tokens;
  /**
   * Prompt tokens the provider served from its prompt cache
   * (`usage.prompt_tokens_details.cached_tokens`), when the endpoint reports it.
   */
  readonly cachedTokens?: Tokens;
}

/** `aborted` is ours (the caller's signal fired); the others are the protocol's. */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "aborted";

/**
 * What a chat stream yields, in order: `retry`* (only before any output), then `text` and
 * `tool_call_delta` interleaved, then `tool_calls` (once, if the model called tools),
 * `usage` (if the server reported it) and exactly one `finish`. A failure throws a
 * `ProviderError` instead of yielding `finish`.
 */
export type StreamEvent =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_call_delta";
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    }
  | { readonly type: "tool_calls"; readonly calls: readonly ToolCall[] }
  | { readonly type: "usage"; readonly usage: Usage }
  | { readonly type: "finish"; readonly reason: FinishReason }
  | {
      /** A retryable failure before the first token; the call is retried after `delayMs`. */
      readonly type: "retry";
      readonly attempt: number;
      readonly delayMs: number;
      readonly code: string;
      readonly message: string;
    };

export interface ModelInfo {
  readonly id: string;
  readonly ownedBy?: string;
}

export type ProviderKind = "offline" | "openai-compatible";

/** Safe to show anywhere (health, settings UI): never carries the API key. */
export interface ProviderDescription {
  readonly kind: ProviderKind;
  readonly label: string;
  readonly model: string;
  readonly summaryModel: string;
  /** The endpoint, with any credentials or query string removed. Absent for offline. */
  readonly baseUrl?: string;
}

/** One provider interface for every model source. */
export interface ChatProvider {
  readonly kind: ProviderKind;
  /** Human label; the offline model is always exactly "offline model". */
  readonly label: string;
  /** The default model name used when a request names none. */
  readonly model: string;
  stream(request: ChatRequest): AsyncIterable<StreamEvent>;
  /** Models the endpoint offers (GET /v1/models), for the settings UI. */
  listModels(signal?: AbortSignal): Promise<readonly ModelInfo[]>;
}

export interface SummaryRequest {
  /**
   * The covered slice, in prompt order. A message whose content starts with
   * `SUMMARY_PREFIX` is read as the previous summary, not as a turn.
   */
  readonly messages: readonly ChatMessage[];
  /** The active summary being replaced; its still-relevant sections carry over. */
  readonly previousSummary?: string;
  /**
   * Summaries of the conversation before these messages that stay in the context as they
   * are (`segmented`, `nested`): read for understanding, never repeated in the new summary.
   */
  readonly context?: string;
  /** The summary must not exceed this many tokens. */
  readonly budget: number;
  readonly signal?: AbortSignal;
}

/** Writes the rolling summary that stands in for a covered slice (compaction.md §4.3). */
export interface Summarizer {
  readonly kind: "extractive" | "llm";
  summarize(request: SummaryRequest): Promise<string>;
}
