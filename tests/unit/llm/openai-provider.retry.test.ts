import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RETRY_POLICY } from "@/lib/llm/retry-policy";
import { ProviderError } from "@/lib/llm/provider-error";
import { behaviours } from "../../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";
import { drain, drainFailure, providerFor, textOf, user } from "./helpers";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const messages = [user("hello")];

describe("retry policy: before the first token only", () => {
  it("retries a 429 and then succeeds, announcing the retry", async () => {
    server.enqueue(behaviours.rateLimited(), behaviours.reply("finally"));
    const events = await drain(providerFor(server).stream({ messages }));
    expect(server.chatRequests).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: "retry", attempt: 1, code: "rate_limited" });
    expect(textOf(events)).toBe("finally");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("retries a 500 before the first token", async () => {
    server.enqueue(
      behaviours.serverError(500),
      behaviours.serverError(503),
      behaviours.reply("ok"),
    );
    const events = await drain(providerFor(server).stream({ messages }));
    expect(server.chatRequests).toHaveLength(3);
    expect(
      events.filter((e) => e.type === "retry").map((e) => e.type === "retry" && e.code),
    ).toEqual(["provider_error", "provider_error"]);
    expect(textOf(events)).toBe("ok");
  });

  it("retries a connection dropped before any response", async () => {
    server.enqueue(behaviours.drop(), behaviours.reply("reconnected"));
    const events = await drain(providerFor(server).stream({ messages }));
    expect(events[0]).toMatchObject({ type: "retry", code: "unreachable" });
    expect(textOf(events)).toBe("reconnected");
  });

  it("sends the identical request body on every attempt", async () => {
    server.enqueue(behaviours.rateLimited(), behaviours.reply("x"));
    await drain(providerFor(server).stream({ messages }));
    const [first, second] = server.chatRequests;
    expect(second?.rawBody).toBe(first?.rawBody);
  });

  it("gives up after maxRetries with rate_limited", async () => {
    server.enqueue(behaviours.rateLimited(), behaviours.rateLimited(), behaviours.rateLimited());
    const { error, seen } = await drainFailure(
      providerFor(server, { retry: { maxRetries: 2 } }).stream({ messages }),
    );
    expect(server.chatRequests).toHaveLength(3);
    expect(seen.filter((e) => e.type === "retry")).toHaveLength(2);
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/after 2 retries/);
  });

  it("gives up after maxRetries with provider_error", async () => {
    server.enqueue(behaviours.serverError(), behaviours.serverError());
    const { error } = await drainFailure(
      providerFor(server, { retry: { maxRetries: 1 } }).stream({ messages }),
    );
    expect(server.chatRequests).toHaveLength(2);
    expect(error.code).toBe("provider_error");
  });

  it("does not retry at all when maxRetries is 0 (the SDK's own retries are off too)", async () => {
    server.enqueue(behaviours.serverError(), behaviours.reply("never"));
    const { error } = await drainFailure(
      providerFor(server, { retry: { maxRetries: 0 } }).stream({ messages }),
    );
    expect(error.code).toBe("provider_error");
    expect(server.chatRequests).toHaveLength(1);
  });

  it("never retries auth_failed, bad_request or provider_overflow", async () => {
    for (const [behaviour, code] of [
      [behaviours.unauthorized(), "auth_failed"],
      [
        behaviours.error(400, { error: { message: "bad field", type: "invalid_request_error" } }),
        "bad_request",
      ],
      [behaviours.overflow("openai"), "provider_overflow"],
    ] as const) {
      server.reset();
      server.enqueue(behaviour, behaviours.reply("should not be reached"));
      const { error, seen } = await drainFailure(providerFor(server).stream({ messages }));
      expect(error.code).toBe(code);
      expect(seen).toEqual([]);
      expect(server.chatRequests).toHaveLength(1);
    }
  });

  it("does not retry after partial output: the error carries the partial text", async () => {
    server.enqueue(behaviours.hang("partial answer "), behaviours.reply("a retry would say this"));
    const stream = providerFor(server).stream({ messages })[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value).toEqual({ type: "text", text: "partial " });
    expect((await stream.next()).value).toEqual({ type: "text", text: "answer " });
    expect(server.interrupt("destroy")).toBe(1);
    const failure = await stream.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ code: "unreachable", partialText: "partial answer " });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("does not retry a 500 sent as an SSE error after the first token", async () => {
    server.enqueue(behaviours.hang("so far "), behaviours.reply("no"));
    const iterator = providerFor(server).stream({ messages })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: "text", text: "so " });
    expect((await iterator.next()).value).toEqual({ type: "text", text: "far " });
    server.interrupt("error_event");
    await expect(iterator.next()).rejects.toMatchObject({
      code: "provider_error",
      status: 500,
      partialText: "so far ",
    });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("keeps partial text when the server's own timer kills the stream (fail_mid_stream)", async () => {
    server.enqueue(behaviours.failMidStream("half a thought", "destroy"));
    const { error, seen } = await drainFailure(providerFor(server).stream({ messages }));
    expect(textOf(seen)).toBe("half a thought");
    expect(error.partialText).toBe("half a thought");
    expect(server.chatRequests).toHaveLength(1);
  });

  it("treats a stream that ends without finish_reason as a failure, not a complete reply", async () => {
    server.enqueue(behaviours.truncate("cut off"));
    const { error } = await drainFailure(providerFor(server).stream({ messages }));
    expect(error).toMatchObject({ code: "provider_error", partialText: "cut off" });
  });

  it("honours Retry-After, capped by maxDelayMs", async () => {
    server.enqueue(behaviours.rateLimited({ "retry-after-ms": "4" }), behaviours.reply("ok"));
    const events = await drain(
      providerFor(server, { retry: { baseDelayMs: 0, maxDelayMs: 50 } }).stream({ messages }),
    );
    expect(events[0]).toMatchObject({ type: "retry", delayMs: 4 });
  });
});

describe("backoffDelay", () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };

  it("doubles per attempt with equal jitter", () => {
    expect(backoffDelay(1, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, { ...policy, random: () => 0.999999 })).toBe(100);
    expect(backoffDelay(3, { ...policy, random: () => 0 })).toBe(200);
  });

  it("never exceeds maxDelayMs, even for a long Retry-After", () => {
    expect(backoffDelay(10, { ...policy, random: () => 0.999999 })).toBe(1000);
    const error = new ProviderError("rate_limited", "slow down", { retryAfterMs: 60_000 });
    expect(backoffDelay(1, policy, error)).toBe(1000);
  });

  it("waits at least the server's Retry-After", () => {
    const error = new ProviderError("rate_limited", "slow down", { retryAfterMs: 700 });
    expect(backoffDelay(1, { ...policy, random: () => 0 }, error)).toBe(700);
  });
});
