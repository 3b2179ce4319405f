/**
 * What the recording server can be told to do with the next chat request, and helpers that
 * build the common cases. Every behaviour is plain JSON, so the same script can be queued
 * from a test in-process or POSTed to the standalone server's control endpoint.
 */

export interface WireUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details?: { readonly cached_tokens: number };
}

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  /** The argument JSON, sent in pieces of `argumentChunkSize` characters. */
  readonly arguments: string;
}

export type Behaviour =
  | {
      readonly kind: "reply";
      readonly text: string;
      /** Exact chunks to stream; default: the text split after each space. */
      readonly chunks?: readonly string[];
      readonly finishReason?: string;
      /** `null` sends no usage chunk even when the client asked for one. */
      readonly usage?: WireUsage | null;
      readonly firstTokenDelayMs?: number;
      readonly chunkDelayMs?: number;
    }
  | {
      readonly kind: "tool_calls";
      readonly calls: readonly ScriptedToolCall[];
      /** Text streamed before the calls. */
      readonly text?: string;
      readonly argumentChunkSize?: number;
      readonly usage?: WireUsage | null;
    }
  /** An HTTP error response before any streaming; `body` is JSON unless it is a string. */
  | {
      readonly kind: "error";
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /**
   * Streams `text`, then fails after `afterMs`: `destroy` kills the connection (a crash or
   * a dropped proxy), `error_event` sends an SSE error payload and ends (a server-side 500
   * once the status line is already out).
   */
  | {
      readonly kind: "fail_mid_stream";
      readonly text: string;
      readonly mode: "destroy" | "error_event";
      readonly afterMs?: number;
    }
  /** Sends headers (and `text`, if any), then nothing until `interrupt()` or the client leaves. */
  | { readonly kind: "hang"; readonly text?: string }
  /** Destroys the connection without answering: a network failure before the first token. */
  | { readonly kind: "drop" }
  /** Streams `text` and ends cleanly, but without a finish_reason or [DONE]. */
  | { readonly kind: "truncate"; readonly text: string };

export type OverflowFlavour =
  "openai" | "vllm" | "ollama" | "llamacpp" | "llamacpp-legacy" | "lmstudio";

/** Context-overflow responses as each server family sends them. */
export const OVERFLOW_BODIES: Readonly<
  Record<OverflowFlavour, { readonly status: number; readonly body: unknown }>
> = {
  openai: {
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages " +
          "resulted in 130512 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  },
  // vLLM's OpenAI server (pre-0.6 shape: top level, no "error" wrapper).
  vllm: {
    status: 400,
    body: {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5123 " +
        "tokens (4123 in the messages, 1000 in the completion). Please reduce the length of " +
        "the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  },
  // Ollama reports it as a server error, which must not be mistaken for a retryable 500.
  ollama: {
    status: 500,
    body: {
      error: {
        message: "the input length exceeds the context length",
        type: "api_error",
        param: null,
        code: null,
      },
    },
  },
  llamacpp: {
    status: 400,
    body: {
      error: {
        code: 400,
        message: "request (4476 tokens) exceeds the available context size (4096 tokens)",
        type: "exceed_context_size_error",
        n_prompt_tokens: 4476,
        n_ctx: 4096,
      },
    },
  },
  "llamacpp-legacy": {
    status: 500,
    body: {
      error: { code: 500, message: "Context size has been exceeded.", type: "server_error" },
    },
  },
  // LM Studio sends the error as a bare string.
  lmstudio: {
    status: 400,
    body: {
      error:
        "Trying to keep the first 5210 tokens when context the overflows. However, the model " +
        "is loaded with context length of only 4096 tokens, which is not enough.",
    },
  },
};

export const behaviours = {
  reply: (
    text: string,
    extra: Omit<Extract<Behaviour, { kind: "reply" }>, "kind" | "text"> = {},
  ): Behaviour => ({
    kind: "reply",
    text,
    ...extra,
  }),
  toolCalls: (calls: readonly ScriptedToolCall[], text?: string): Behaviour => ({
    kind: "tool_calls",
    calls,
    ...(text === undefined ? {} : { text }),
  }),
  error: (
    status: number,
    body: unknown,
    headers?: Readonly<Record<string, string>>,
  ): Behaviour => ({
    kind: "error",
    status,
    body,
    ...(headers === undefined ? {} : { headers }),
  }),
  rateLimited: (headers?: Readonly<Record<string, string>>): Behaviour =>
    behaviours.error(
      429,
      {
        error: {
          message: "Rate limit reached. Please try again.",
          type: "requests",
          code: "rate_limit_exceeded",
        },
      },
      headers,
    ),
  serverError: (status = 500): Behaviour =>
    behaviours.error(status, {
      error: { message: "The server had an error.", type: "server_error", code: null },
    }),
  unauthorized: (message = "Incorrect API key provided."): Behaviour =>
    behaviours.error(401, {
      error: { message, type: "invalid_request_error", code: "invalid_api_key" },
    }),
  overflow: (flavour: OverflowFlavour): Behaviour =>
    behaviours.error(OVERFLOW_BODIES[flavour].status, OVERFLOW_BODIES[flavour].body),
  slowFirstToken: (delayMs: number, text: string): Behaviour => ({
    kind: "reply",
    text,
    firstTokenDelayMs: delayMs,
  }),
  failMidStream: (text: string, mode: "destroy" | "error_event", afterMs?: number): Behaviour => ({
    kind: "fail_mid_stream",
    text,
    mode,
    ...(afterMs === undefined ? {} : { afterMs }),
  }),
  hang: (text?: string): Behaviour => ({ kind: "hang", ...(text === undefined ? {} : { text }) }),
  drop: (): Behaviour => ({ kind: "drop" }),
  truncate: (text: string): Behaviour => ({ kind: "truncate", text }),
} as const;
