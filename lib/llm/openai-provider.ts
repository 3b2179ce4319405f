/**
 * The OpenAI-compatible provider: the `openai` SDK against any Chat Completions endpoint
 * (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter).
 *
 * Retry rule: a retryable failure (429, 5xx, network, a stalled first token) is retried with
 * backoff only while nothing has been streamed. Once text has reached the caller a retry
 * would duplicate or contradict it, so the failure is thrown with the partial text and the
 * caller seals the node `error`. The SDK's own retries are off so this is the only policy.
 */
import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { classifyError, redact } from "./classify-error";
import { capturingFetch } from "./error-body-capture";
import { fromWireFinish, fromWireUsage, toWireMessage, toWireTool } from "./openai-wire";
import { ProviderError } from "./provider-error";
import { backoffDelay, DEFAULT_RETRY_POLICY, sleep, type RetryPolicy } from "./retry-policy";
import "./server-only";
import { createToolCallAssembler } from "./tool-call-assembler";
import type {
  ChatProvider,
  ChatRequest,
  FinishReason,
  ModelInfo,
  StreamEvent,
  Usage,
} from "./types";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OpenAIProviderOptions {
  /** From server configuration only (OPENAI_BASE_URL), never from a request. */
  readonly baseUrl: string;
  /** Absent for local servers that need none: no Authorization header is sent then. */
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly retry?: Partial<RetryPolicy>;
  /** Longest wait for the first token (or header) of an attempt. Default 10 minutes. */
  readonly firstTokenTimeoutMs?: number;
  /** Longest silence between chunks once output has started. Default 2 minutes. */
  readonly idleTimeoutMs?: number;
  /**
   * Which output-limit field to send. OpenAI's newer models accept only
   * `max_completion_tokens`; many local servers know only `max_tokens`. Default: the former
   * for api.openai.com, the latter elsewhere.
   */
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Injected for tests; defaults to the global fetch. */
  readonly fetch?: Fetch;
}

/** Parses and checks an endpoint URL: http or https only, no trailing slash. */
export function checkedBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ProviderError("bad_request", "The model endpoint URL is not a valid URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ProviderError("bad_request", "The model endpoint URL must use http or https.");
  }
  url.pathname = url.pathname.replace(/\/+$/, "");
  return url;
}

/** The endpoint as it may be shown: credentials, query and fragment removed. */
export function displayBaseUrl(raw: string): string {
  const url = checkedBaseUrl(raw);
  url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}

interface Progress {
  /** Set once a text or tool-call delta has been yielded: from then on, no retries. */
  emitted: boolean;
  text: string;
}

export function createOpenAIProvider(options: OpenAIProviderOptions): ChatProvider {
  const baseUrl = checkedBaseUrl(options.baseUrl);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const firstTokenTimeoutMs = options.firstTokenTimeoutMs ?? 600_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
  const maxTokensField =
    options.maxTokensField ??
    (baseUrl.hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens");
  const client = new OpenAI({
    baseURL: baseUrl.toString().replace(/\/+$/, ""),
    // The SDK insists on a key; without one, it is a placeholder whose header is removed.
    apiKey: options.apiKey ?? "unused",
    ...(options.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
    maxRetries: 0,
    timeout: firstTokenTimeoutMs,
    fetch: capturingFetch(options.fetch),
  });
  const sanitize = (error: ProviderError) =>
    error.withMessage(redact(error.message, options.apiKey));

  function paramsFor(request: ChatRequest): ChatCompletionCreateParamsStreaming {
    const tools = request.tools ?? [];
    return {
      model: request.model ?? options.model,
      messages: request.messages.map(toWireMessage),
      stream: true,
      stream_options: { include_usage: true },
      ...(tools.length > 0 ? { tools: tools.map(toWireTool) } : {}),
      ...(request.maxOutputTokens === undefined
        ? {}
        : { [maxTokensField]: request.maxOutputTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
  }

  /** One HTTP attempt. Throws on failure; `progress` tells the caller whether it may retry. */
  async function* attempt(
    params: ChatCompletionCreateParamsStreaming,
    userSignal: AbortSignal | undefined,
    progress: Progress,
  ): AsyncGenerator<StreamEvent> {
    const controller = new AbortController();
    const onUserAbort = () => controller.abort();
    userSignal?.addEventListener("abort", onUserAbort, { once: true });
    let stalled: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number, why: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = why;
        controller.abort();
      }, ms);
    };
    arm(firstTokenTimeoutMs, `The model sent nothing within ${firstTokenTimeoutMs} ms.`);
    const stallError = (why: string, cause?: unknown) =>
      new ProviderError("unreachable", why, cause === undefined ? {} : { cause });
    try {
      const chunks = await client.chat.completions.create(params, { signal: controller.signal });
      const assembler = createToolCallAssembler();
      let finish: FinishReason | undefined;
      let usage: Usage | undefined;
      // Once output has started, the deadline becomes "the next chunk", re-armed per chunk.
      const outputSeen = () => {
        progress.emitted = true;
        arm(idleTimeoutMs, `The model stalled for ${idleTimeoutMs} ms.`);
      };
      for await (const chunk of chunks) {
        if (progress.emitted) outputSeen();
        if (chunk.usage) usage = fromWireUsage(chunk.usage);
        for (const choice of chunk.choices ?? []) {
          const content = choice.delta?.content;
          if (typeof content === "string" && content !== "") {
            outputSeen();
            progress.text += content;
            yield { type: "text", text: content };
          }
          for (const [position, fragment] of (choice.delta?.tool_calls ?? []).entries()) {
            const index = assembler.add(fragment, position);
            outputSeen();
            yield {
              type: "tool_call_delta",
              index,
              ...(fragment.id ? { id: fragment.id } : {}),
              ...(fragment.function?.name ? { name: fragment.function.name } : {}),
              argumentsDelta: fragment.function?.arguments ?? "",
            };
          }
          if (choice.finish_reason) finish = fromWireFinish(choice.finish_reason);
        }
      }
      // The SDK ends iteration quietly when its signal fires, so ask why it ended.
      if (stalled !== undefined) throw stallError(stalled);
      if (userSignal?.aborted) {
        if (usage) yield { type: "usage", usage };
        yield { type: "finish", reason: "aborted" };
        return;
      }
      if (finish === undefined) {
        throw new ProviderError("provider_error", "The stream ended before the model finished.");
      }
      const calls = assembler.calls();
      if (calls.length > 0) yield { type: "tool_calls", calls };
      if (usage) yield { type: "usage", usage };
      yield { type: "finish", reason: finish };
    } catch (error) {
      if (stalled !== undefined && !userSignal?.aborted) throw stallError(stalled, error);
      throw error;
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener("abort", onUserAbort);
      controller.abort();
    }
  }

  async function* stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
    const params = paramsFor(request);
    const signal = request.signal;
    for (let retries = 0; ; retries++) {
      if (signal?.aborted) {
        yield { type: "finish", reason: "aborted" };
        return;
      }
      const progress: Progress = { emitted: false, text: "" };
      try {
        yield* attempt(params, signal, progress);
        return;
      } catch (raw) {
        // A Stop that races a failure is still a Stop.
        if (signal?.aborted) {
          yield { type: "finish", reason: "aborted" };
          return;
        }
        const error = sanitize(classifyError(raw));
        if (progress.emitted) throw error.withPartialText(progress.text);
        if (!error.retryable || retries >= policy.maxRetries) {
          throw retries === 0
            ? error
            : error.withMessage(`${error.message} (after ${retries} retries)`);
        }
        const delayMs = backoffDelay(retries + 1, policy, error);
        yield {
          type: "retry",
          attempt: retries + 1,
          delayMs,
          code: error.code,
          message: error.message,
        };
        if (!(await sleep(delayMs, signal))) {
          yield { type: "finish", reason: "aborted" };
          return;
        }
      }
    }
  }

  async function listModels(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    try {
      const models: ModelInfo[] = [];
      for await (const m of client.models.list(signal === undefined ? {} : { signal })) {
        models.push({ id: m.id, ...(m.owned_by ? { ownedBy: m.owned_by } : {}) });
      }
      return models;
    } catch (error) {
      if (signal?.aborted) throw new ProviderError("aborted", "Listing models was cancelled.");
      throw sanitize(classifyError(error));
    }
  }

  return {
    kind: "openai-compatible",
    label: `${options.model} via ${baseUrl.host}`,
    model: options.model,
    stream,
    listModels,
  };
}
