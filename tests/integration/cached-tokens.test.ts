import { afterAll, beforeEach, expect, it } from "vitest";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { startRecordingServer, type RecordedRequest } from "../support/recording-server";
import { messageWords } from "../support/recording-responder";
import { describeEachDatabase } from "./support/databases";
import { useApp } from "./support/routes";

/**
 * [R254] A reply records the prompt tokens its provider served from a prompt cache
 * (`usage.prompt_tokens_details.cached_tokens`), streamed or not, beside its other counts;
 * a provider that reports none leaves the count out rather than writing a zero.
 */

const server = await startRecordingServer({ models: ["spindle-test-model"], promptCache: true });
afterAll(() => server.close());

/** What the recording server reports as cached: the words of the leading messages `r` shares
 * byte for byte with the chat request before it (an independent count of the same thing). */
function sharedWords(before: RecordedRequest | undefined, r: RecordedRequest): number {
  const a = (before?.body?.["messages"] ?? []) as unknown[];
  const b = (r.body?.["messages"] ?? []) as unknown[];
  let n = 0;
  while (n < a.length && n < b.length && JSON.stringify(a[n]) === JSON.stringify(b[n])) n += 1;
  return messageWords(b.slice(0, n));
}

describeEachDatabase("[R254] cached prompt tokens", (kind) => {
  let routes: Parameters<Parameters<typeof useApp>[2]>[0]["routes"] | undefined;
  useApp(
    kind,
    { SPINDLE_AUTH: "off", OPENAI_BASE_URL: server.url, SPINDLE_MODEL: "spindle-test-model" },
    (app) => ({ routes } = app),
  );
  const call = (...args: Parameters<NonNullable<typeof routes>["call"]>) => {
    if (!routes) throw new Error("the app is not up");
    return routes.call(...args);
  };
  beforeEach(() => server.reset());

  it("[R254] each reply keeps the provider's cached_tokens with its prompt and completion tokens, streamed or not", async () => {
    const created = await call("POST", "/api/sessions", { title: "Cache" });
    const id = (created.json as unknown as SessionRecord).id;
    const first = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Plan a week in Lisbon.",
      stream: false,
    });
    expect(first.status, first.text).toBe(200);
    const second = await call("POST", `/api/sessions/${id}/turns`, {
      content: "And a day in Sintra?",
      stream: false,
    });
    expect(second.status, second.text).toBe(200);
    // The third turn streams (the route's default): the count arrives with the last chunk.
    const third = await call("POST", `/api/sessions/${id}/turns`, { content: "Trains or buses?" });
    expect(third.status, third.text).toBe(200);
    expect(third.type).toMatch(/text\/event-stream/);

    const asked = server.chatRequests;
    expect(asked).toHaveLength(3);
    const page = await call("GET", `/api/sessions/${id}/nodes`);
    const replies = (page.json["nodes"] as LedgerNode[]).filter((n) => n.kind === "assistant");
    expect(replies).toHaveLength(3);
    const cached = replies.map((r) => r.metadata.usage?.cachedTokens);
    expect(cached).toEqual([
      sharedWords(undefined, asked[0] as RecordedRequest),
      sharedWords(asked[0], asked[1] as RecordedRequest),
      sharedWords(asked[1], asked[2] as RecordedRequest),
    ]);
    // The first request has nothing before it; each later one shares the whole previous
    // prompt (system, questions, replies), so its cache grows.
    expect(cached[0]).toBe(0);
    expect(cached[1]).toBeGreaterThan(0);
    expect(cached[2]).toBeGreaterThan(cached[1] ?? 0);
    for (const reply of replies) {
      const usage = reply.metadata.usage;
      expect(usage?.promptTokens).toBeGreaterThanOrEqual(usage?.cachedTokens ?? Infinity);
      expect(usage?.completionTokens).toBeGreaterThan(0);
    }
  });
});
