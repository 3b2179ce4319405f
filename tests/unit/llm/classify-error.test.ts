import { describe, expect, it } from "vitest";
import { classifyError, redact, retryAfterMs } from "@/lib/llm/classify-error";
import { ProviderError } from "@/lib/llm/provider-error";

describe("classifyError and helpers", () => {
  it("parses retry-after-ms, retry-after seconds and HTTP dates", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }), now)).toBe(
      3000,
    );
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it("passes ProviderErrors through and wraps unknown throws as provider_error", () => {
    const own = new ProviderError("rate_limited", "x");
    expect(classifyError(own)).toBe(own);
    expect(classifyError(new Error("boom"))).toMatchObject({ code: "provider_error" });
    expect(classifyError("weird")).toMatchObject({ code: "provider_error" });
  });

  it("recognises undici network failures", () => {
    expect(classifyError(new TypeError("terminated"))).toMatchObject({ code: "unreachable" });
    const refused = Object.assign(new TypeError("fetch failed"), {
      cause: { code: "ECONNREFUSED" },
    });
    expect(classifyError(refused)).toMatchObject({ code: "unreachable" });
  });

  it("redacts a secret wherever it appears", () => {
    expect(redact("key sk-abcd and sk-abcd", "sk-abcd")).toBe("key [redacted] and [redacted]");
    expect(redact("nothing", undefined)).toBe("nothing");
  });
});
