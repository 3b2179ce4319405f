import { describe, expect, it, vi } from "vitest";
import { EarlyReply } from "@/lib/dispatcher/early-reply";
import type { ChatMessage, StreamEvent } from "@/lib/llm/types";
import type { Wire } from "@/lib/view/wire";
import type { NodeId } from "@/lib/engine/ids";

const wire = (...texts: string[]): Wire => ({
  messages: texts.map((content, i) => ({ role: i === 0 ? "system" : "user", content })),
  ids: texts.map((_, i) => `n${i}` as NodeId),
});

/** A request that records its signal and answers with `texts`, or ends when aborted. */
function request(texts: string[]) {
  const seen: { signal?: AbortSignal; calls: number } = { calls: 0 };
  const open = (_wire: Wire, signal: AbortSignal) => {
    seen.signal = signal;
    async function* events(): AsyncGenerator<StreamEvent> {
      seen.calls++;
      for (const text of texts) {
        if (signal.aborted) {
          yield { type: "finish", reason: "aborted" };
          return;
        }
        yield { type: "text", text };
      }
      yield { type: "finish", reason: "stop" };
    }
    return Promise.resolve(events());
  };
  return { seen, open };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("[R292] a reply's request started before its claim", () => {
  it("[R292] sends at once, and hands the whole stream, first event included, to the reply with the same prompt", async () => {
    const { seen, open } = request(["a", "b"]);
    const early = await EarlyReply.start(wire("sys", "hello"), undefined, open);
    // The first event was asked for: the request is out before anyone takes it.
    expect(seen.calls).toBe(1);
    const same: ChatMessage[] = [...wire("sys", "hello").messages];
    const taken = early.take(same);
    expect(taken).not.toBeNull();
    expect(await collect(taken!)).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "finish", reason: "stop" },
    ]);
    // Once only; a cancel after the take does not stop the reply's stream.
    expect(early.take(same)).toBeNull();
    early.cancel();
    expect(seen.signal?.aborted).toBe(false);
  });

  it("[R292] a different prompt (the claim saw another summary) aborts the early request", async () => {
    const { seen, open } = request(["a", "b"]);
    const early = await EarlyReply.start(wire("sys", "hello"), undefined, open);
    expect(early.take(wire("sys", "summary", "hello").messages)).toBeNull();
    expect(seen.signal?.aborted).toBe(true);
    expect(early.take(wire("sys", "hello").messages)).toBeNull();
  });

  it("[R292] a request that could not be made fails the reply that takes it, at its first event", async () => {
    const early = await EarlyReply.start(wire("sys", "x"), undefined, () =>
      Promise.reject(new Error("the file is unreadable")),
    );
    const taken = early.take(wire("sys", "x").messages);
    expect(taken).not.toBeNull();
    await expect(collect(taken!)).rejects.toThrow("the file is unreadable");
  });

  it("[R292] the first token's time is when it arrived, not when the reply read it", async () => {
    const { open } = request(["a"]);
    const early = await EarlyReply.start(wire("sys", "x"), undefined, open);
    await vi.waitFor(() => expect(early.firstTokenAt).toBeDefined());
    const arrived = early.firstTokenAt;
    expect(arrived).toBeGreaterThanOrEqual(early.sentAt);
    const taken = early.take(wire("sys", "x").messages);
    await collect(taken!);
    expect(early.firstTokenAt).toBe(arrived);
  });

  it("[R292] a cancel aborts it, and so does the user's Stop", async () => {
    const first = request(["a"]);
    const early = await EarlyReply.start(wire("sys", "x"), undefined, first.open);
    early.cancel();
    early.cancel();
    expect(first.seen.signal?.aborted).toBe(true);

    const stop = new AbortController();
    const second = request(["a"]);
    await EarlyReply.start(wire("sys", "x"), stop.signal, second.open);
    expect(second.seen.signal?.aborted).toBe(false);
    stop.abort();
    expect(second.seen.signal?.aborted).toBe(true);
  });
});
