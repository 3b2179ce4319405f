import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isContextOverflow, OVERFLOW_RULES } from "@/lib/llm/overflow-matcher";
import {
  behaviours,
  OVERFLOW_BODIES,
  type OverflowFlavour,
} from "../../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";
import { drainFailure, providerFor, user } from "./helpers";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const messages = [user("a very long prompt")];

describe("context-overflow mapping, one case per server flavour", () => {
  const flavours = Object.keys(OVERFLOW_BODIES) as OverflowFlavour[];

  it.each(flavours)("%s → provider_overflow, not retried", async (flavour) => {
    server.enqueue(behaviours.overflow(flavour), behaviours.reply("unreachable"));
    const { error, seen } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error.code).toBe("provider_overflow");
    expect(error.status).toBe(OVERFLOW_BODIES[flavour].status);
    expect(seen).toEqual([]);
    expect(server.chatRequests).toHaveLength(1);
  });

  it("keeps vLLM's top-level message, which the SDK alone would lose", async () => {
    server.enqueue(behaviours.overflow("vllm"));
    const { error } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error.message).toMatch(/maximum context length is 4096 tokens/);
  });

  it("an ordinary 400 is bad_request and a plain 500 stays retryable", async () => {
    server.enqueue(
      behaviours.error(400, {
        error: { message: "Unknown parameter: foo", type: "invalid_request_error" },
      }),
    );
    const bad = await drainFailure(providerFor(server).stream({ messages }));
    expect(bad.error.code).toBe("bad_request");
    expect(bad.error.message).toMatch(/Unknown parameter/);
    expect(bad.error.retryable).toBe(false);

    server.enqueue(behaviours.serverError(), behaviours.serverError(), behaviours.serverError());
    const failed = await drainFailure(providerFor(server).stream({ messages }));
    expect(failed.error.code).toBe("provider_error");
    expect(failed.error.retryable).toBe(true);
  });

  it("a 429 that mentions tokens is a rate limit, never an overflow", () => {
    const signal = {
      status: 429,
      code: "rate_limit_exceeded",
      type: "tokens",
      text: "Request too large: maximum context length per min (TPM) is 30000 tokens.",
    };
    expect(isContextOverflow(signal)).toBe(false);
  });

  it("every matcher row names where it was seen", () => {
    expect(OVERFLOW_RULES.length).toBeGreaterThanOrEqual(10);
    for (const rule of OVERFLOW_RULES) expect(rule.seenFrom).not.toBe("");
  });
});

describe("other error codes", () => {
  it("401 → auth_failed, not retried", async () => {
    server.enqueue(behaviours.unauthorized());
    const { error } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error).toMatchObject({ code: "auth_failed", status: 401 });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("403 → auth_failed", async () => {
    server.enqueue(behaviours.error(403, { error: { message: "Project not allowed" } }));
    const { error } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error.code).toBe("auth_failed");
  });

  it("404 (unknown model) → bad_request with the server's message", async () => {
    server.enqueue(behaviours.error(404, { error: { message: 'model "nope" not found' } }));
    const { error } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/model "nope" not found/);
  });

  it("a plain-text error body is kept in the message", async () => {
    server.enqueue(behaviours.error(502, "upstream connect error"));
    const { error } = await drainFailure(
      providerFor(server, { retry: { maxRetries: 0 } }).stream({ messages }),
    );
    expect(error).toMatchObject({ code: "provider_error", status: 502 });
    expect(error.message).toMatch(/upstream connect error/);
  });

  it("never repeats the API key a server echoes back", async () => {
    server.enqueue(behaviours.unauthorized("Incorrect API key provided: sk-test-key"));
    const { error } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error.message).not.toContain("sk-test-key");
    expect(error.message).toContain("[redacted]");
  });

  it("connection refused → unreachable, after the retries", async () => {
    const closed = await startRecordingServer();
    const url = closed.url;
    await closed.close();
    const provider = providerFor(closed, { baseUrl: url, retry: { maxRetries: 1 } });
    const { error, seen } = await drainFailure(provider.stream({ messages }));
    expect(error.code).toBe("unreachable");
    expect(seen.filter((e) => e.type === "retry")).toHaveLength(1);
  });

  it("listModels maps errors the same way", async () => {
    const closed = await startRecordingServer();
    await closed.close();
    await expect(providerFor(closed).listModels()).rejects.toMatchObject({ code: "unreachable" });
  });

  it("rejects a non-http(s) base URL at construction", () => {
    expect(() => providerFor(server, { baseUrl: "file:///etc/passwd" })).toThrow(/http or https/);
    expect(() => providerFor(server, { baseUrl: "not a url" })).toThrow(/not a valid URL/);
  });
});
