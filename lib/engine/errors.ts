/**
 * The error catalogue: every failure the engine, the store, the dispatcher and the providers
 * report carries one of these codes, and the HTTP status of each code is decided here once
 * (product.md §4: errors travel as `{error:{code,message}}`).
 */

/** HTTP statuses the API answers errors with. */
export type HttpErrorStatus =
  400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 421 | 429 | 499 | 500 | 502;

interface CatalogueEntry {
  readonly status: HttpErrorStatus;
  /** Used when the thrower has nothing more specific to say. */
  readonly message: string;
}

const CATALOGUE = {
  // Unknown things. A node id from another session is reported exactly like a missing one.
  session_not_found: { status: 404, message: "No such session." },
  node_not_found: { status: 404, message: "No such node in this session." },
  api_key_not_found: { status: 404, message: "No such API key." },
  not_found: { status: 404, message: "No such endpoint." },

  // Who is asking, and from where (lib/auth, lib/http/edge.ts). Another user's session is
  // `session_not_found`, never `forbidden`: a 403 would confirm that it exists.
  unauthenticated: { status: 401, message: "Sign in, or send an API key as a Bearer token." },
  forbidden: { status: 403, message: "This request is not allowed." },
  cross_origin: {
    status: 403,
    message: "A state-changing request must come from this server's own pages.",
  },
  misdirected_request: { status: 421, message: "This server does not answer for that host name." },
  unsupported_media_type: { status: 415, message: "Send the body as application/json." },
  method_not_allowed: { status: 405, message: "That method is not allowed here." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  too_many_attempts: { status: 429, message: "Too many attempts; wait a few minutes." },
  import_busy: {
    status: 429,
    message: "Another import is being written on this server; try again in a moment.",
  },
  signup_closed: {
    status: 403,
    message: "Sign-up is closed: ask the admin of this server to create your account.",
  },

  // The request is well-formed but conflicts with the ledger's state.
  node_not_on_spine: { status: 409, message: "Rewind only moves HEAD to a node of its spine." },
  node_not_checkoutable: {
    status: 409,
    message: "Summaries and notices are side leaves and cannot become HEAD.",
  },
  node_not_deletable: {
    status: 409,
    message: "The ROOT, summaries and notices are not branches and cannot be deleted.",
  },
  not_a_branch_tip: { status: 409, message: "Only the tip of a branch can be deleted." },
  turn_in_progress: { status: 409, message: "A reply is still streaming in this session." },
  compaction_not_needed: { status: 409, message: "There is nothing to compact." },
  compaction_thrash: {
    status: 409,
    message: "Compaction would run again within a few turns; the window is too small.",
  },
  conflict: { status: 409, message: "The ledger changed underneath this request." },
  // The summariser answered, but its summary would not shrink this branch's context (a
  // short history): the session's state, not a failure of the request or the upstream.
  summary_not_smaller: {
    status: 409,
    message: "The summary would not make the context smaller; nothing was written.",
  },
  compaction_conflict: {
    status: 409,
    message: "The session changed while its summary was being written; nothing was written.",
  },

  // Bad input.
  empty_content: { status: 400, message: "The message is empty." },
  content_too_large: { status: 413, message: "The message is longer than the configured limit." },
  invalid_request: { status: 400, message: "The request is invalid." },
  invalid_target: { status: 400, message: "That node cannot be the target of this operation." },

  // The model provider (lib/llm) failed. Our upstream failing is a gateway error, never the
  // client's fault — except rate limiting, which the client can usefully wait out.
  provider_overflow: { status: 502, message: "The prompt exceeds the model's context window." },
  rate_limited: { status: 429, message: "The model provider is rate limiting requests." },
  auth_failed: { status: 502, message: "The model provider rejected the server's credentials." },
  unreachable: { status: 502, message: "The model provider could not be reached." },
  bad_request: { status: 502, message: "The model provider rejected the request." },
  provider_error: { status: 502, message: "The model provider failed." },
  compaction_failed: { status: 502, message: "Compaction failed; nothing was written." },

  // The client went away or stopped the stream (nginx's "client closed request").
  aborted: { status: 499, message: "The request was aborted." },

  // Our own invariants broke.
  invalid_ledger: { status: 500, message: "The session's ledger is inconsistent." },
  internal: { status: 500, message: "Internal error." },
} as const satisfies Record<string, CatalogueEntry>;

/** Every error code the system reports. */
export type ErrorCode = keyof typeof CATALOGUE;
/** Alias of {@link ErrorCode}. */
export type EngineErrorCode = ErrorCode;

/** All codes, for exhaustive tests and API documentation. */
export const ENGINE_ERROR_CODES: readonly EngineErrorCode[] = Object.keys(
  CATALOGUE,
) as EngineErrorCode[];

/**
 * The HTTP status an error code is answered with (one of {@link HttpErrorStatus}; typed as a
 * plain number so route helpers can take it as a default status argument).
 */
export function httpStatusOf(code: ErrorCode): number {
  return CATALOGUE[code].status;
}

/** An error with a catalogue code. Thrown by engine decisions; mapped once at the HTTP edge. */
/**
 * A registry-wide brand: a bundler may load this module more than once (Next's server
 * chunks each carry their own copy), and `instanceof` against another copy's class is false.
 */
const ENGINE_ERROR = Symbol.for("spindle.EngineError");

export class EngineError extends Error {
  override readonly name = "EngineError";
  readonly code: EngineErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: EngineErrorCode,
    message: string = CATALOGUE[code].message,
    details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.code = code;
    this.details = details;
    Object.defineProperty(this, ENGINE_ERROR, { value: true });
  }

  /** The HTTP status this error is answered with. */
  get status(): HttpErrorStatus {
    return CATALOGUE[this.code].status;
  }
}

/** True for an EngineError, including one from another copy of this module. */
export function isEngineError(value: unknown): value is EngineError {
  return (
    value instanceof EngineError ||
    (typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[ENGINE_ERROR] === true)
  );
}

/** The wire body of an error response (product.md §4). */
export interface ErrorBody {
  readonly error: { readonly code: EngineErrorCode; readonly message: string };
}

/** Turns an EngineError into its response body. */
export function errorBody(error: EngineError): ErrorBody {
  return { error: { code: error.code, message: error.message } };
}
