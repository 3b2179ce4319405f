import type { ErrorCode } from "../engine/errors";

/** HTTP statuses the API answers errors with. */
export type HttpErrorStatus =
  400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 421 | 422 | 429 | 499 | 500 | 502;

/**
 * The HTTP status of every error code, in one table (product.md §4). The type makes it
 * exhaustive: a code added to the catalogue does not compile until it has a status here.
 */
const STATUS: Readonly<Record<ErrorCode, HttpErrorStatus>> = {
  // Unknown things.
  session_not_found: 404,
  node_not_found: 404,
  attachment_not_found: 404,
  api_key_not_found: 404,
  not_found: 404,

  // Who is asking, and from where.
  unauthenticated: 401,
  forbidden: 403,
  cross_origin: 403,
  misdirected_request: 421,
  unsupported_media_type: 415,
  method_not_allowed: 405,
  payload_too_large: 413,
  too_many_attempts: 429,
  import_busy: 429,
  too_many_streams: 429,
  account_busy: 429,
  signup_closed: 403,
  invalid_password: 401,
  password_change_required: 403,

  // Well-formed, but in conflict with the ledger's state.
  node_not_on_spine: 409,
  node_not_checkoutable: 409,
  node_not_deletable: 409,
  not_a_branch_tip: 409,
  turn_in_progress: 409,
  compaction_not_needed: 409,
  compaction_thrash: 409,
  conflict: 409,
  summary_not_smaller: 409,
  compaction_conflict: 409,
  not_a_reply: 409,
  reply_streaming: 409,
  no_provenance: 409,
  prompt_too_large: 409,
  not_a_summary: 409,

  // Bad input.
  empty_content: 400,
  content_too_large: 413,
  invalid_request: 400,
  invalid_target: 400,
  unsupported_attachment: 415,
  attachment_too_large: 413,
  attachment_in_use: 409,
  vision_unsupported: 400,
  pdf_encrypted: 422,
  pdf_too_large: 422,
  pdf_unreadable: 422,

  // The upstream failed: a gateway error, never the client's fault — but rate limiting,
  // which the client can usefully wait out.
  provider_overflow: 502,
  rate_limited: 429,
  auth_failed: 502,
  unreachable: 502,
  bad_request: 502,
  provider_error: 502,
  compaction_failed: 502,

  // The client went away or stopped the stream (nginx's "client closed request").
  aborted: 499,

  // Our own invariants broke.
  invalid_ledger: 500,
  internal: 500,
};

/**
 * The HTTP status an error code is answered with (one of {@link HttpErrorStatus}; typed as a
 * plain number so route helpers can take it as a default status argument).
 */
export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** The wire body of an error response (product.md §4). */
export interface ErrorBody {
  readonly error: { readonly code: ErrorCode; readonly message: string };
}

/** An error's response body. */
export function errorBody(error: {
  readonly code: ErrorCode;
  readonly message: string;
}): ErrorBody {
  return { error: { code: error.code, message: error.message } };
}
