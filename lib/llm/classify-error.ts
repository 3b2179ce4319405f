/**
 * Maps whatever the openai SDK (or the network under it) throws to one `ProviderError`.
 * This is the only file that knows the SDK's error classes.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { capturedBody } from "./error-body-capture";
import { isContextOverflow } from "./overflow-matcher";
import {
  isProviderError,
  ProviderError,
  type ProviderErrorCode,
  type ProviderErrorDetails,
} from "./provider-error";

function readRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Parses `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: unknown, now: number = Date.now()): number | undefined {
  if (!(headers instanceof Headers)) return undefined;
  const ms = Number(headers.get("retry-after-ms") ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get("retry-after");
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function codeForStatus(status: number): ProviderErrorCode {
  if (status === 401 || status === 403) return "auth_failed";
  if (status === 429) return "rate_limited";
  // 408 and 409 are transient on OpenAI (request timeout, lock contention).
  if (status === 408 || status === 409 || status >= 500) return "provider_error";
  return "bad_request";
}

/**
 * An error event inside a 200 stream has no HTTP status; vLLM and llama.cpp put a numeric
 * code in the body, which is the status the failure would have had.
 */
function impliedStatus(error: APIError): number | undefined {
  if (error.status !== undefined) return error.status;
  const body = readRecord(error.error);
  const code = body?.["code"];
  if (typeof code === "number" && code >= 400 && code < 600) return code;
  if (error.type === "rate_limit_exceeded" || error.code === "rate_limit_exceeded") return 429;
  return undefined;
}

function fromApiError(error: APIError): ProviderError {
  const status = impliedStatus(error);
  const raw = capturedBody(error.headers);
  const body = readRecord(error.error) ?? readRecord(safeJson(raw));
  const text = [error.message, raw ?? ""].join("\n");
  const signal = { status, code: body?.["code"], type: body?.["type"], text };
  const message = describe(error.message, raw);
  const wait = retryAfterMs(error.headers);
  const details: ProviderErrorDetails = {
    cause: error,
    ...(status === undefined ? {} : { status }),
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  };
  if (isContextOverflow(signal)) return new ProviderError("provider_overflow", message, details);
  // No status: a failure reported mid-stream. Treat it as the server's fault.
  const code = status === undefined ? "provider_error" : codeForStatus(status);
  return new ProviderError(code, message, details);
}

function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The SDK's message, or the raw body's `message` when the SDK could not find one. */
function describe(sdkMessage: string, raw: string | undefined): string {
  if (!/status code \(no body\)/.test(sdkMessage) || raw === undefined) return sdkMessage;
  const parsed = readRecord(safeJson(raw));
  const inner = parsed?.["message"] ?? parsed?.["detail"] ?? raw;
  return `${sdkMessage.replace(/ status code \(no body\)$/, "")} ${String(inner)}`.trim();
}

/** Network-level failures undici reports as TypeErrors ("fetch failed", "terminated"). */
function isNetworkError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const cause = readRecord((error as { cause?: unknown }).cause);
  const causeCode = typeof cause?.["code"] === "string" ? cause["code"] : "";
  return (
    /fetch failed|terminated|socket|other side closed|ECONN|EPIPE|network/i.test(error.message) ||
    /^(ECONN|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR)/.test(causeCode)
  );
}

/** Turns anything a provider call threw into the catalogue's vocabulary. */
export function classifyError(error: unknown): ProviderError {
  if (isProviderError(error)) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError("unreachable", "The model endpoint timed out.", { cause: error });
  }
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : "";
    return new ProviderError("unreachable", `Cannot reach the model endpoint${detail}`, {
      cause: error,
    });
  }
  if (error instanceof APIError) return fromApiError(error);
  if (isNetworkError(error)) {
    return new ProviderError(
      "unreachable",
      `Connection to the model endpoint lost: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError("provider_error", `The model endpoint failed: ${message}`, {
    cause: error,
  });
}

/** Removes a secret from text that may be shown to a user (some servers echo the key). */
export function redact(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join("[redacted]");
}
