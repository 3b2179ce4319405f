/**
 * The one catalogue of error codes. Every failure that crosses a layer is an EngineError
 * carrying one of these codes; `httpStatusOf` maps a code to an HTTP status in one place.
 */
export type ErrorCode =
  | "session_not_found"
  | "node_not_found"
  | "node_not_on_spine"
  | "node_not_checkoutable"
  | "empty_content"
  | "content_too_large"
  | "turn_in_progress"
  | "invalid_request"
  | "invalid_ledger"
  | "compaction_not_needed"
  | "compaction_failed"
  | "provider_overflow"
  | "rate_limited"
  | "auth_failed"
  | "unreachable"
  | "bad_request"
  | "provider_error"
  | "aborted"
  | "conflict"
  | "internal";

const STATUS: { readonly [C in ErrorCode]: number } = {
  session_not_found: 404,
  node_not_found: 404,
  node_not_on_spine: 409,
  node_not_checkoutable: 409,
  empty_content: 400,
  content_too_large: 413,
  turn_in_progress: 409,
  invalid_request: 400,
  invalid_ledger: 500,
  compaction_not_needed: 409,
  compaction_failed: 502,
  provider_overflow: 502,
  rate_limited: 429,
  auth_failed: 502,
  unreachable: 502,
  bad_request: 502,
  provider_error: 502,
  aborted: 499,
  conflict: 409,
  internal: 500,
};

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = "EngineError";
  }
}

/** The HTTP status an error code answers with. */
export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code];
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}
