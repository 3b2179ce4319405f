/**
 * The provider layer's error catalogue. Every failure a provider can report is one of these
 * codes, so the dispatcher maps them once (to an HTTP status, a node's `error` seal, or a
 * reactive compaction) and never inspects SDK error classes.
 */

export type ProviderErrorCode =
  /** The prompt does not fit the model's context window: compact, then retry once. */
  | "provider_overflow"
  | "rate_limited"
  | "auth_failed"
  | "unreachable"
  | "bad_request"
  | "provider_error"
  /** Only from non-streaming calls (summaries, model lists); a stream ends `aborted` instead. */
  | "aborted";

/** Codes worth another attempt when nothing has been streamed yet. */
const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set([
  "rate_limited",
  "unreachable",
  "provider_error",
]);

export interface ProviderErrorDetails {
  /** HTTP status, when the failure came with one. */
  readonly status?: number;
  /** Text already streamed before the failure; the caller keeps it on the `error` node. */
  readonly partialText?: string;
  /** Server-suggested wait (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

/** Survives duplicate copies of this module in separate server chunks (see isEngineError). */
const PROVIDER_ERROR = Symbol.for("spindle.ProviderError");

export class ProviderError extends Error {
  readonly status: number | undefined;
  readonly partialText: string;
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    details: ProviderErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ProviderError";
    this.status = details.status;
    this.partialText = details.partialText ?? "";
    this.retryAfterMs = details.retryAfterMs;
    Object.defineProperty(this, PROVIDER_ERROR, { value: true });
  }

  /** True when the policy may retry this failure (before the first token only). */
  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  /** The same error, now knowing which text had streamed before it. */
  withPartialText(partialText: string): ProviderError {
    return this.copy({ partialText }, this.message, this.cause);
  }

  /**
   * The same error with a new message. The cause is dropped: it is the reason for a new
   * message (typically a redaction), and it would still carry the old text.
   */
  withMessage(message: string): ProviderError {
    return message === this.message ? this : this.copy({}, message, undefined);
  }

  private copy(changes: ProviderErrorDetails, message: string, cause: unknown): ProviderError {
    return new ProviderError(this.code, message, {
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      partialText: this.partialText,
      ...changes,
      cause,
    });
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return (
    value instanceof ProviderError ||
    (typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[PROVIDER_ERROR] === true)
  );
}
