import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { behaviours } from "../../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";
import { drain, drainFailure, providerFor, textOf, user } from "./helpers";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const messages = [user("tell me a long story")];

describe("abort (the user's Stop)", () => {
  it("mid-stream: ends cleanly with finish aborted and closes the connection", async () => {
    server.enqueue(behaviours.hang("Once upon "));
    const stop = new AbortController();
    const events = [];
    for await (const event of providerFor(server).stream({ messages, signal: stop.signal })) {
      events.push(event);
      if (textOf(events) === "Once upon ") stop.abort();
    }
    expect(textOf(events)).toBe("Once upon ");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "aborted" });
    expect(await server.chatRequests[0]?.outcome).toBe("incomplete");
  });

  it("before the first token: ends cleanly once the request is in flight", async () => {
    server.enqueue(behaviours.hang());
    const stop = new AbortController();
    const done = drain(providerFor(server).stream({ messages, signal: stop.signal }));
    const request = await server.waitForChatRequest(1);
    stop.abort();
    expect(await done).toEqual([{ type: "finish", reason: "aborted" }]);
    expect(await request.outcome).toBe("incomplete");
  });

  it("already aborted: sends nothing", async () => {
    const stop = new AbortController();
    stop.abort();
    const events = await drain(providerFor(server).stream({ messages, signal: stop.signal }));
    expect(events).toEqual([{ type: "finish", reason: "aborted" }]);
    expect(server.chatRequests).toHaveLength(0);
  });

  it("during a retry backoff: stops waiting and ends aborted, no second attempt", async () => {
    server.enqueue(behaviours.rateLimited(), behaviours.reply("never"));
    const stop = new AbortController();
    const provider = providerFor(server, { retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const events = [];
    for await (const event of provider.stream({ messages, signal: stop.signal })) {
      events.push(event);
      if (event.type === "retry") stop.abort();
    }
    expect(events.map((e) => e.type)).toEqual(["retry", "finish"]);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "aborted" });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("breaking out of the loop closes the HTTP stream", async () => {
    server.enqueue(behaviours.hang("first "));
    for await (const event of providerFor(server).stream({ messages })) {
      if (event.type === "text") break;
    }
    expect(await server.chatRequests[0]?.outcome).toBe("incomplete");
  });
});

describe("slow and stalled servers", () => {
  it("a slow first token is waited for", async () => {
    server.enqueue(behaviours.slowFirstToken(80, "worth the wait"));
    const events = await drain(providerFor(server).stream({ messages }));
    expect(textOf(events)).toBe("worth the wait");
  });

  it("a first token slower than firstTokenTimeoutMs is retried, then succeeds", async () => {
    server.enqueue(behaviours.slowFirstToken(5_000, "too late"), behaviours.reply("fresh"));
    const events = await drain(
      providerFor(server, { firstTokenTimeoutMs: 50 }).stream({ messages }),
    );
    expect(events[0]).toMatchObject({ type: "retry", code: "unreachable" });
    expect(textOf(events)).toBe("fresh");
    expect(await server.chatRequests[0]?.outcome).toBe("incomplete");
  });

  it("a stream that hangs after output fails after idleTimeoutMs, keeping its text", async () => {
    server.enqueue(behaviours.hang("started "), behaviours.reply("not retried"));
    const { error } = await drainFailure(
      providerFor(server, { idleTimeoutMs: 50 }).stream({ messages }),
    );
    expect(error).toMatchObject({ code: "unreachable", partialText: "started " });
    expect(error.message).toMatch(/stalled/);
    expect(server.chatRequests).toHaveLength(1);
  });
});
