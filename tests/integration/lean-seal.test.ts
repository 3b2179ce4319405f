import { expect, it } from "vitest";

import { asNodeId, tokens, type NodeId } from "@/lib/engine/ids";
import type { ChatProvider, StreamEvent } from "@/lib/llm/types";
import { createProviders } from "@/lib/llm/provider-factory";
import type { SessionStore } from "@/lib/store/session-store";
import { openReply } from "./support/replies";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { testDispatcher } from "./support/dispatcher";

/** What the store is handed while a reply streams and is sealed (the [R117] seam). */
interface Seen {
  contentSent: number;
  fills: number;
  tailSeals: number;
  wholeSeals: number;
  stamps: number;
  sealReads: number;
}

/** The store behind a proxy that counts the text and `reads` each write is given. */
function counting(store: SessionStore, failFill?: number): { store: SessionStore; seen: Seen } {
  const seen: Seen = {
    contentSent: 0,
    fills: 0,
    tailSeals: 0,
    wholeSeals: 0,
    stamps: 0,
    sealReads: 0,
  };
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === "appendStreaming") {
        return async (...args: Parameters<SessionStore["appendStreaming"]>) => {
          seen.fills++;
          if (seen.fills === failFill) throw new Error("the fill failed (test double)");
          seen.contentSent += args[2].length;
          return target.appendStreaming(...args);
        };
      }
      if (prop === "sealAppending") {
        return (...args: Parameters<SessionStore["sealAppending"]>) => {
          seen.tailSeals++;
          seen.contentSent += args[2].tail.length;
          if (args[2].reads) seen.sealReads++;
          return target.sealAppending(...args);
        };
      }
      if (prop === "seal") {
        return (...args: Parameters<SessionStore["seal"]>) => {
          seen.wholeSeals++;
          seen.contentSent += args[2].content.length;
          if (args[2].reads) seen.sealReads++;
          return target.seal(...args);
        };
      }
      if (prop === "stampReads") {
        return (...args: Parameters<SessionStore["stampReads"]>) => {
          seen.stamps++;
          return target.stampReads(...args);
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store: proxy, seen };
}

/** Streams `chunks` a little apart and finishes at once after the last (a tail is unflushed). */
function chunked(chunks: readonly string[]): ChatProvider {
  return {
    kind: "offline",
    label: "chunks (test double)",
    model: "chunks",
    async *stream(): AsyncIterable<StreamEvent> {
      for (const c of chunks) {
        await new Promise((r) => setTimeout(r, 2));
        yield { type: "text", text: c };
      }
      yield { type: "finish", reason: "stop" };
    },
    listModels: async () => [],
  };
}

function providersWith(chat: ChatProvider) {
  const base = createProviders({
    openai: undefined,
    model: undefined,
    summaryModel: undefined,
    offlineDelayMs: 0,
    contextWindow: undefined,
  });
  return { ...base, chat };
}

// Quotes, backslashes, astral characters and SQL: text is bound, never spliced.
const CHUNKS = Array.from({ length: 80 }, (_, i) => `c${i} 'q' "d" \\ 😀 é || '); -- `);
const TEXT = CHUNKS.join("");

describeEachDatabase("[R133] the seal writes what the fills have not", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  it("[R133] fills and seal carry the reply's text once; reads are written once", async () => {
    const { store: seam, seen } = counting(store);
    const { dispatcher } = testDispatcher(seam, {
      providers: providersWith(chunked(CHUNKS)),
      flushMs: 15,
    });
    const s = await store.createSession({});
    const turn = dispatcher.turn({ sessionId: s.id, mode: "send", content: "go" });
    let step = await turn.next();
    while (!step.done) step = await turn.next();
    const reply = step.value.reply;
    expect(reply.content).toBe(TEXT);
    const stored = await store.node(s.id, reply.id);
    expect(stored.content).toBe(TEXT);
    expect(stored.status).toBe("complete");
    expect(seen.fills).toBeGreaterThan(1);
    expect(seen.tailSeals).toBe(1);
    expect(seen.wholeSeals).toBe(0);
    // Fills + seal: exactly the reply, not a character more.
    expect(seen.contentSent).toBe(TEXT.length);
    // The stamp beside the model call holds the reads; the seal does not write them again.
    expect(seen.stamps).toBe(1);
    expect(seen.sealReads).toBe(0);
    expect(stored.reads).toEqual((await dispatcher.context(s.id, reply.predecessorId!)).ids);
  });

  it("[R133] after a failed fill the seal writes the whole text once", async () => {
    const { store: seam, seen } = counting(store, 2);
    const { dispatcher } = testDispatcher(seam, {
      providers: providersWith(chunked(CHUNKS)),
      flushMs: 15,
    });
    const s = await store.createSession({});
    const turn = dispatcher.turn({ sessionId: s.id, mode: "send", content: "go" });
    let step = await turn.next();
    while (!step.done) step = await turn.next();
    const reply = step.value.reply;
    expect(reply.status).toBe("error");
    expect(seen.tailSeals).toBe(0);
    expect(seen.wholeSeals).toBe(1);
    expect((await store.node(s.id, reply.id)).content).toBe(reply.content);
    expect(TEXT.startsWith(reply.content)).toBe(true);
  });

  it("[R133] a tail seal is guarded by the stored length; a mismatch changes nothing", async () => {
    const s = await store.createSession({});
    const node = await openReply(store, s.id);
    await store.appendStreaming(s.id, node.id, `a'"\\😀`);
    // Five code points stored; a seal that expects six is refused without a change.
    const refused = await store.sealAppending(s.id, node.id, {
      status: "complete",
      tokenCount: tokens(3),
      tail: "!",
      after: 6,
    });
    expect(refused).toBeNull();
    expect(await store.node(s.id, node.id)).toMatchObject({
      content: `a'"\\😀`,
      status: "streaming",
    });
    const sealed = await store.sealAppending(s.id, node.id, {
      status: "complete",
      tokenCount: tokens(3),
      metadata: { model: "m" },
      reads: [asNodeId("x") as NodeId],
      tail: " 👍🏽 done",
      after: 5,
    });
    expect(sealed).toMatchObject({
      content: `a'"\\😀 👍🏽 done`,
      status: "complete",
      metadata: { model: "m" },
      reads: ["x"],
    });
    await expect(
      store.sealAppending(s.id, node.id, {
        status: "complete",
        tokenCount: tokens(3),
        tail: "again",
        after: 13,
      }),
    ).rejects.toMatchObject({ code: "conflict" });
  });
});
