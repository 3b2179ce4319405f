import pg from "pg";
import { expect, it, vi } from "vitest";

import { PgBus } from "@/lib/events/pg-bus";
import type { SessionEvent } from "@/lib/events/session-event";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { ChatProvider, StreamEvent } from "@/lib/llm/types";
import { createProviders } from "@/lib/llm/provider-factory";
import type { SessionStore } from "@/lib/store/session-store";
import {
  createDatabase,
  describeEachDatabase,
  PG_ADMIN_URL,
  useFreshStore,
  type TestDatabase,
} from "./support/databases";
import { openReply } from "./support/replies";
import { recordEvents, testDispatcher } from "./support/dispatcher";

/** A test double: streams `count` one-word tokens, `gapMs` apart. */
function tokenFirehose(count: number, gapMs: number): ChatProvider {
  return {
    kind: "offline",
    label: "firehose (test double)",
    model: "firehose",
    async *stream(): AsyncIterable<StreamEvent> {
      for (let i = 0; i < count; i++) {
        await new Promise((r) => setTimeout(r, gapMs));
        yield { type: "text", text: `w${i} ` };
      }
      yield { type: "finish", reason: "stop" };
    },
    listModels: async () => [],
  };
}

describeEachDatabase("[R67] streaming writes are batched", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  it("[R67] 150 tokens over ~0.5 s cost a handful of writes, never one per token", async () => {
    let fills = 0;
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === "appendStreaming") {
          return (...args: Parameters<SessionStore["appendStreaming"]>) => {
            fills++;
            return target.appendStreaming(...args);
          };
        }
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const base = createProviders({
      openai: undefined,
      model: undefined,
      summaryModel: undefined,
      offlineDelayMs: 0,
      contextWindow: undefined,
    });
    const { dispatcher, bus } = testDispatcher(counting, {
      providers: { ...base, chat: tokenFirehose(150, 3) },
      flushMs: 250,
    });
    const s = await store.createSession({});
    const published = recordEvents(bus, s.id);
    const started = Date.now();
    const { reply } = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "go" });
    // [R89] The channel's batched deltas carry their offsets and add up to the reply.
    let relayed = "";
    for (const e of published) {
      if (e.type !== "delta") continue;
      expect(e.offset).toBe(relayed.length);
      relayed += e.text;
    }
    expect(reply.content.startsWith(relayed)).toBe(true);
    expect(relayed.length).toBeGreaterThan(0);
    const elapsed = Date.now() - started;
    expect(reply.status).toBe("complete");
    expect(reply.content.split(" ").filter(Boolean)).toHaveLength(150);
    expect(fills).toBeGreaterThan(0);
    expect(fills).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
    expect(fills).toBeLessThan(15);
  });

  it("[R66] a Stop (abort) seals the reply interrupted with the text so far", async () => {
    const base = createProviders({
      openai: undefined,
      model: undefined,
      summaryModel: undefined,
      offlineDelayMs: 0,
      contextWindow: undefined,
    });
    const { dispatcher } = testDispatcher(store, { providers: { ...base, chat: abortable() } });
    const s = await store.createSession({});
    const controller = new AbortController();
    const turn = dispatcher.turn({
      sessionId: s.id,
      mode: "send",
      content: "go",
      signal: controller.signal,
    });
    let step = await turn.next();
    while (!step.done) {
      if (step.value.type === "delta") controller.abort();
      step = await turn.next();
    }
    expect(step.value.reply.status).toBe("interrupted");
    expect(step.value.reply.content).toBe("partial ");
    expect(await store.hasLiveStream(s.id)).toBe(false);
  });
});

/** A test double that honours the abort signal the way the real providers do. */
function abortable(): ChatProvider {
  return {
    kind: "offline",
    label: "abortable (test double)",
    model: "abortable",
    async *stream(req): AsyncIterable<StreamEvent> {
      yield { type: "text", text: "partial " };
      await new Promise<void>((resolve) => {
        if (req.signal?.aborted) resolve();
        req.signal?.addEventListener("abort", () => resolve());
      });
      yield { type: "finish", reason: "aborted" };
    },
    listModels: async () => [],
  };
}

/** Two event buses (two app instances) on a fresh PostgreSQL database, closed after `body`. */
async function withTwoBuses(
  body: (a: PgBus, b: PgBus, test: TestDatabase) => Promise<void>,
): Promise<void> {
  const test = await createDatabase("postgresql");
  const a = await PgBus.connect(test.url);
  const b = await PgBus.connect(test.url);
  try {
    await body(a, b, test);
  } finally {
    await a.close();
    await b.close();
    await test.drop();
  }
}

describeEachDatabase("[R70] session events", (kind) => {
  it.runIf(kind === "postgresql")("[R70] cross instances through LISTEN/NOTIFY, in order", () =>
    withTwoBuses(async (a, b) => {
      const sessionId = asSessionId("01SESSIONEVENTS");
      const got: SessionEvent[] = [];
      const done = new Promise<void>((resolve) => {
        b.subscribe(sessionId, (e) => {
          got.push(e);
          if (got.length === 3) resolve();
        });
      });
      const seenLocally: SessionEvent[] = [];
      a.subscribe(sessionId, (e) => seenLocally.push(e));
      a.publish(sessionId, {
        type: "head_moved",
        headId: asNodeId("01A"),
        previousHeadId: null,
        move: "checkout",
      });
      a.publish(sessionId, {
        type: "delta",
        id: asNodeId("01B"),
        text: "x".repeat(20_000),
        offset: 0,
      });
      a.publish(sessionId, {
        type: "notice",
        code: "local_command",
        message: "hello",
        nodeId: null,
      });
      await done;
      expect(got.map((e) => e.type)).toEqual(["head_moved", "node_changed", "notice"]);
      // The publisher's own subscribers get the event at once, and not again from the channel.
      expect(seenLocally.map((e) => e.type)).toEqual(["head_moved", "delta", "notice"]);
    }),
  );

  it.runIf(kind === "postgresql")(
    "[R70] PostgreSQL ending the bus's connections (a restart, an admin) is survived: events flow again",
    () =>
      withTwoBuses(async (a, b, test) => {
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
        try {
          const sessionId = asSessionId("01SESSIONRESTART");
          const got: SessionEvent[] = [];
          let heard: () => void = () => undefined;
          b.subscribe(sessionId, (e) => {
            got.push(e);
            heard();
          });
          const next = (type: string) =>
            new Promise<void>((resolve) => {
              heard = () => {
                if (got.some((e) => e.type === type)) resolve();
              };
              heard();
            });
          const notice = (message: string): SessionEvent => ({
            type: "notice",
            code: "local_command",
            message,
            nodeId: null,
          });
          // Both buses hold connections: a's publishing one sits idle in its pool.
          a.publish(sessionId, notice("before"));
          await next("notice");
          const ended = await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            [new URL(test.url).pathname.slice(1)],
          );
          expect(ended.rowCount).toBeGreaterThanOrEqual(3);
          // b listens again and tells its subscribers to refetch what they may have missed.
          await next("session_changed");
          got.length = 0;
          a.publish(sessionId, notice("after"));
          await next("notice");
          expect(got).toContainEqual(notice("after"));
        } finally {
          errors.mockRestore();
          await admin.end();
        }
      }),
    20_000,
  );

  it("[R70] reach every subscriber in this process", async () => {
    const { bus } = testDispatcher({} as SessionStore);
    const sessionId = asSessionId("01LOCAL");
    const one: string[] = [];
    const two: string[] = [];
    const off = bus.subscribe(sessionId, (e) => one.push(e.type));
    bus.subscribe(sessionId, (e) => two.push(e.type));
    bus.subscribe(asSessionId("01OTHER"), () => {
      throw new Error("another session's subscriber must not be called");
    });
    bus.publish(sessionId, { type: "notice", code: "local_command", message: "a", nodeId: null });
    off();
    bus.publish(sessionId, { type: "notice", code: "local_command", message: "b", nodeId: null });
    expect(one).toEqual(["notice"]);
    expect(two).toEqual(["notice", "notice"]);
  });
});

describeEachDatabase("[R117] lean fills", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  it("[R117] a reply of N chunks is stored exactly, each chunk sent once", async () => {
    let sent = 0;
    let fills = 0;
    // Resolves once the fills have carried the whole text (the buffer flushes on a timer).
    let flushed: () => void = () => undefined;
    const allFlushed = new Promise<void>((r) => (flushed = r));
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === "appendStreaming") {
          return async (...args: Parameters<SessionStore["appendStreaming"]>) => {
            fills++;
            sent += args[2].length;
            await target.appendStreaming(...args);
            if (sent >= text.length) flushed();
          };
        }
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    // Quotes, backslashes, astral characters and SQL: text is bound, never spliced.
    const chunks = Array.from({ length: 120 }, (_, i) => `c${i} 'q' "d" \\ 😀 || '); -- `);
    const text = chunks.join("");
    let storedBeforeSeal = "";
    let replyId = "";
    const provider: ChatProvider = {
      kind: "offline",
      label: "chunks (test double)",
      model: "chunks",
      async *stream(): AsyncIterable<StreamEvent> {
        for (const c of chunks) {
          await new Promise((r) => setTimeout(r, 2));
          yield { type: "text", text: c };
        }
        // Every flush has landed: the stored text is the streamed text, not a byte more.
        await allFlushed;
        storedBeforeSeal = (await store.node(s.id, asNodeId(replyId))).content;
        yield { type: "finish", reason: "stop" };
      },
      listModels: async () => [],
    };
    const base = createProviders({
      openai: undefined,
      model: undefined,
      summaryModel: undefined,
      offlineDelayMs: 0,
      contextWindow: undefined,
    });
    const { dispatcher } = testDispatcher(counting, {
      providers: { ...base, chat: provider },
      flushMs: 25,
    });
    const s = await store.createSession({});
    const turn = dispatcher.turn({ sessionId: s.id, mode: "send", content: "go" });
    let step = await turn.next();
    while (!step.done) {
      if (step.value.type === "node" && step.value.node.status === "streaming") {
        replyId = step.value.node.id;
      }
      step = await turn.next();
    }
    expect(storedBeforeSeal).toBe(text);
    expect(step.value.reply.content).toBe(text);
    expect((await store.node(s.id, step.value.reply.id)).content).toBe(text);
    expect(fills).toBeGreaterThan(1);
    // Each chunk travels once (the seal's final write aside): at most twice the reply.
    expect(sent).toBe(text.length);
    expect(sent).toBeLessThanOrEqual(2 * text.length);
  });

  it("[R117] a fill of a node that is no longer streaming is refused and changes nothing", async () => {
    const s = await store.createSession({});
    const node = await openReply(store, s.id);
    await store.appendStreaming(s.id, node.id, "one ");
    await store.appendStreaming(s.id, node.id, "");
    await store.appendStreaming(s.id, node.id, "two");
    expect((await store.node(s.id, node.id)).content).toBe("one two");
    await store.seal(s.id, node.id, {
      status: "complete",
      content: "one two",
      tokenCount: tokens(2),
    });
    await expect(store.appendStreaming(s.id, node.id, " three")).rejects.toMatchObject({
      code: "conflict",
    });
    const other = await store.createSession({});
    await expect(store.appendStreaming(other.id, node.id, "x")).rejects.toMatchObject({
      code: "conflict",
    });
    expect((await store.node(s.id, node.id)).content).toBe("one two");
  });
});
