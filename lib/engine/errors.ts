/**
 * The error catalogue: every failure the engine, the store, the dispatcher and the providers
 * report carries one of these codes with a default message (product.md §4: errors travel as
 * `{error:{code,message}}`). The HTTP status of each code is decided once, at the edge, in
 * `lib/http/status.ts`.
 */

const CATALOGUE = {
  // Unknown things. A node id from another session is reported exactly like a missing one.
  session_not_found: "No such session.",
  node_not_found: "No such node in this session.",
  attachment_not_found: "No such attachment in this session.",
  api_key_not_found: "No such API key.",
  not_found: "No such endpoint.",

  // Who is asking, and from where (lib/auth, lib/http/edge.ts). Another user's session is
  // `session_not_found`, never `forbidden`: a 403 would confirm that it exists.
  unauthenticated: "Sign in, or send an API key as a Bearer token.",
  forbidden: "This request is not allowed.",
  cross_origin: "A state-changing request must come from this server's own pages.",
  misdirected_request: "This server does not answer for that host name.",
  unsupported_media_type: "Send the body as application/json.",
  method_not_allowed: "That method is not allowed here.",
  payload_too_large: "The request body is too large.",
  too_many_attempts: "Too many attempts; wait a few minutes.",
  import_busy: "Another import is being written on this server; try again in a moment.",
  too_many_streams: "This account has too many event streams open; close a tab and try again.",
  account_busy: "This account is already reading several large sessions; try again in a moment.",
  signup_closed: "Sign-up is closed: ask the admin of this server to create your account.",
  invalid_password: "The current password is not correct.",
  password_change_required:
    "Your administrator set a temporary password: choose a new one on the Account page first.",

  // The request is well-formed but conflicts with the ledger's state.
  node_not_on_spine: "Rewind only moves HEAD to a node of its spine.",
  node_not_checkoutable: "Summaries and notices are side leaves and cannot become HEAD.",
  node_not_deletable: "The ROOT, summaries and notices are not branches and cannot be deleted.",
  not_a_branch_tip: "Only the tip of a branch can be deleted.",
  turn_in_progress: "A reply is still streaming in this session.",
  compaction_not_needed: "There is nothing to compact.",
  compaction_thrash: "Compaction would run again within a few turns; the window is too small.",
  conflict: "The ledger changed underneath this request.",
  // The summariser answered, but its summary would not shrink this branch's context (a
  // short history): the session's state, not a failure of the request or the upstream.
  summary_not_smaller: "The summary would not make the context smaller; nothing was written.",
  compaction_conflict:
    "The session changed while its summary was being written; nothing was written.",
  // Replay and audit (issue 22): what a node must be for them to make sense.
  not_a_reply: "Only a model's reply can be replayed.",
  reply_streaming: "This reply is still streaming; replay it once it has finished.",
  no_provenance: "This reply has no recorded prompt (reads), so it cannot be replayed.",
  prompt_too_large: "The prompt does not fit the model's context window.",
  not_a_summary: "Only a summary can be audited.",

  // Bad input.
  empty_content: "The message is empty.",
  content_too_large: "The message is longer than the configured limit.",
  invalid_request: "The request is invalid.",
  invalid_target: "That node cannot be the target of this operation.",
  // Attachments (docs/spec.md "Attachments"): judged by content, capped, sent once.
  unsupported_attachment: "That kind of file is not accepted.",
  attachment_too_large: "The attachment is larger than the configured limit.",
  attachment_in_use: "That attachment was already sent with a message.",
  vision_unsupported: "This model cannot read images.",
  // A PDF whose text cannot be read (R278): the file is a PDF, but not one the server reads.
  pdf_encrypted: "The PDF is protected by a password.",
  pdf_too_large: "The PDF is too large to read.",
  pdf_unreadable: "The PDF cannot be read.",

  // The model provider (lib/llm) failed. Our upstream failing is a gateway error, never the
  // client's fault — except rate limiting, which the client can usefully wait out.
  provider_overflow: "The prompt exceeds the model's context window.",
  rate_limited: "The model provider is rate limiting requests.",
  auth_failed: "The model provider rejected the server's credentials.",
  unreachable: "The model provider could not be reached.",
  bad_request: "The model provider rejected the request.",
  provider_error: "The model provider failed.",
  compaction_failed: "Compaction failed; nothing was written.",

  // The client went away or stopped the stream (nginx's "client closed request").
  aborted: "The request was aborted.",

  // Our own invariants broke.
  invalid_ledger: "The session's ledger is inconsistent.",
  internal: "Internal error.",
} as const satisfies Record<string, string>;

/** Every error code the system reports. */
export type ErrorCode = keyof typeof CATALOGUE;
/** Alias of {@link ErrorCode}. */
export type EngineErrorCode = ErrorCode;

/** All codes, for exhaustive tests and API documentation. */
export const ENGINE_ERROR_CODES: readonly EngineErrorCode[] = Object.keys(
  CATALOGUE,
) as EngineErrorCode[];

/**
 * A registry-wide brand: a bundler may load this module more than once (Next's server
 * chunks each carry their own copy), and `instanceof` against another copy's class is false.
 */
const ENGINE_ERROR = Symbol.for("spindle.EngineError");

/** An error with a catalogue code. Thrown by engine decisions; mapped once at the HTTP edge. */
export class EngineError extends Error {
  override readonly name = "EngineError";
  readonly code: EngineErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: EngineErrorCode,
    message: string = CATALOGUE[code],
    details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.code = code;
    this.details = details;
    Object.defineProperty(this, ENGINE_ERROR, { value: true });
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
