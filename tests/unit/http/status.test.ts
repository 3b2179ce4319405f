import { describe, expect, it } from "vitest";
import {
  ENGINE_ERROR_CODES,
  EngineError,
  isEngineError,
  type ErrorCode,
} from "@/lib/engine/errors";
import { errorBody, httpStatusOf } from "@/lib/http/status";

describe("error catalogue", () => {
  it("[R60] every code maps to one HTTP status, in one table", () => {
    const expected: Record<ErrorCode, number> = {
      session_not_found: 404,
      node_not_found: 404,
      attachment_not_found: 404,
      unsupported_attachment: 415,
      attachment_too_large: 413,
      attachment_in_use: 409,
      vision_unsupported: 400,
      pdf_encrypted: 422,
      pdf_too_large: 422,
      pdf_unreadable: 422,
      api_key_not_found: 404,
      not_found: 404,
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
      node_not_on_spine: 409,
      node_not_checkoutable: 409,
      node_not_deletable: 409,
      not_a_branch_tip: 409,
      turn_in_progress: 409,
      compaction_not_needed: 409,
      compaction_thrash: 409,
      conflict: 409,
      compaction_conflict: 409,
      not_a_reply: 409,
      reply_streaming: 409,
      no_provenance: 409,
      prompt_too_large: 409,
      not_a_summary: 409,
      empty_content: 400,
      content_too_large: 413,
      invalid_request: 400,
      invalid_target: 400,
      provider_overflow: 502,
      rate_limited: 429,
      auth_failed: 502,
      unreachable: 502,
      bad_request: 502,
      provider_error: 502,
      summary_not_smaller: 409,
      compaction_failed: 502,
      aborted: 499,
      invalid_ledger: 500,
      internal: 500,
    };
    expect([...ENGINE_ERROR_CODES].sort()).toEqual(Object.keys(expected).sort());
    for (const code of ENGINE_ERROR_CODES)
      expect([code, httpStatusOf(code)]).toEqual([code, expected[code]]);
  });

  it("[R60] an EngineError carries its code, status, message and wire body", () => {
    const e = new EngineError("node_not_on_spine", "u9 is not on the spine", { id: "u9" });
    expect(e).toBeInstanceOf(Error);
    expect(isEngineError(e)).toBe(true);
    expect(isEngineError(new Error("x"))).toBe(false);
    expect(e.name).toBe("EngineError");
    expect(httpStatusOf(e.code)).toBe(409);
    expect(e.details).toEqual({ id: "u9" });
    expect(errorBody(e)).toEqual({
      error: { code: "node_not_on_spine", message: "u9 is not on the spine" },
    });
    expect(new EngineError("empty_content").message).toBe("The message is empty.");
  });
});
