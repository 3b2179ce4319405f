import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StreamBuffer } from "@/lib/dispatcher/stream-buffer";

describe("StreamBuffer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("[R117] writes only the new text, in order, at most 4 times a second", async () => {
    const writes: { chunk: string; offset: number }[] = [];
    const buffer = new StreamBuffer({
      flushMs: 250,
      keepAliveMs: 5_000,
      now: () => Date.now(),
      write: async (chunk, offset) => {
        writes.push({ chunk, offset });
      },
    });
    buffer.start();
    let text = "";
    // 2 seconds of a token every 10 ms.
    for (let i = 0; i < 200; i++) {
      const token = `t${i}😀 `;
      text += token;
      buffer.append(token);
      await vi.advanceTimersByTimeAsync(10);
    }
    await buffer.stop();
    expect(writes.length).toBeLessThanOrEqual(8);
    expect(writes.length).toBeGreaterThanOrEqual(7);
    let stored = "";
    for (const w of writes) {
      expect(w.offset).toBe(stored.length);
      stored += w.chunk;
    }
    // What was written is a prefix of the text (the seal writes the rest), sent once.
    expect(text.startsWith(stored)).toBe(true);
    expect(writes.reduce((n, w) => n + w.chunk.length, 0)).toBe(stored.length);
    // [R133] the seal learns how much is stored and sends only the rest.
    expect(buffer.stored).toBe(stored.length);
  });

  it("[R117] a silent model only renews the lease; a failed write stops the writes after it", async () => {
    const writes: string[] = [];
    let fail = false;
    const buffer = new StreamBuffer({
      flushMs: 250,
      keepAliveMs: 1_000,
      now: () => Date.now(),
      write: async (chunk) => {
        if (fail) throw new Error("gone");
        writes.push(chunk);
      },
    });
    buffer.start();
    await vi.advanceTimersByTimeAsync(2_100);
    expect(writes).toEqual(["", ""]);
    fail = true;
    buffer.append("a");
    await vi.advanceTimersByTimeAsync(300);
    fail = false;
    await vi.advanceTimersByTimeAsync(2_000);
    // Nothing is appended after the hole; the next append reports the failure.
    expect(writes).toEqual(["", ""]);
    expect(() => buffer.append("b")).toThrow("gone");
    await buffer.stop();
    // [R133] after a failed write the stored prefix is doubtful: the seal writes it all.
    expect(buffer.stored).toBeNull();
  });
});
