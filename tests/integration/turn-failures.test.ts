import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { Compactor } from "@/lib/compaction/compactor";
import { asNodeId, tokens } from "@/lib/engine/ids";
import { countTokens } from "@/lib/llm/tokens";

import type { StreamEvent, ChatProvider } from "@/lib/llm/types";
import type { SessionStore } from "@/lib/store/session-store";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../support/recording-server";
import { recordingProviders, offlineProviders } from "./support/compaction-helpers";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { testDispatcher } from "./support/dispatcher";

/** A test double that streams one word and then waits until its call is aborted. */
function blockingUntilAborted(): ChatProvider {
  return {
    kind: "offline",
    label: "blocking (test double)",
    model: "blocking",
    async *stream(req): AsyncIterable<StreamEvent> {
      yield { type: "text", text: "working " };
      await new Promise<void>((resolve) => {
        if (req.signal?.aborted) resolve();
        req.signal?.addEventListener("abort", () => resolve());
      });
      yield { type: "finish", reason: "aborted" };
    },
    listModels: async () => [],
  };
}

describeEachDatabase("turn failures lose nothing", (kind) => {
  let store: SessionStore;
  let server: RecordingServer;
  useFreshStore(kind, (env) => ({ store } = env));

  beforeAll(async () => {
    server = await startRecordingServer();
  });
  beforeEach(() => server.reset());

  afterAll(async () => {
    await server?.close();
  });

  it("[R68] a provider failing mid-stream seals the reply `error` with its partial text", async () => {
    const { dispatcher } = testDispatcher(store, { providers: recordingProviders(server) });
    const s = await store.createSession({});
    const ok = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "first" });
    server.reset();
    server.enqueue(behaviours.failMidStream("The answer begins here and then", "destroy"));
    const { user, reply } = await dispatcher.runTurn({
      sessionId: s.id,
      mode: "send",
      content: "second",
    });
    expect(reply.status).toBe("error");
    expect(reply.content).toContain("The answer begins here");
    expect(reply.metadata.error?.code).toBeTruthy();
    // No retry after partial output: one request for this turn.
    expect(server.chatRequests).toHaveLength(1);
    // Everything before is intact, HEAD is on the failed reply, and the next turn works
    // (a failed reply never enters a rendering).
    expect(await store.node(s.id, ok.reply.id)).toEqual(ok.reply);
    expect((await store.getSession(s.id)).headId).toBe(reply.id);
    const next = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "third" });
    expect(next.reply.status).toBe("complete");
    expect(next.reply.reads).not.toContain(reply.id);
    expect(next.reply.reads).toContain(user?.id);
  });

  it("[R68] a provider that fails before the first token leaves an `error` reply, retried first", async () => {
    const { dispatcher } = testDispatcher(store, { providers: recordingProviders(server) });
    const s = await store.createSession({});
    server.enqueue(
      behaviours.serverError(500),
      behaviours.serverError(502),
      behaviours.serverError(503),
    );
    const { reply } = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "hello" });
    expect(server.chatRequests).toHaveLength(3);
    expect(reply.status).toBe("error");
    expect(reply.metadata.error?.code).toBe("provider_error");
    expect(await store.hasLiveStream(s.id)).toBe(false);
  });

  it("[R24] a second head-advancing turn while one streams is turn_in_progress; nothing is written", async () => {
    const base = offlineProviders();
    const { dispatcher } = testDispatcher(store, {
      providers: { ...base, chat: blockingUntilAborted() },
    });
    const s = await store.createSession({});
    const controller = new AbortController();
    const first = dispatcher.turn({
      sessionId: s.id,
      mode: "send",
      content: "long one",
      signal: controller.signal,
    });
    // Drive the first turn until its reply streams.
    for (;;) {
      const step = await first.next();
      if (step.done || step.value.type === "delta") break;
    }
    const before = await store.nodes(s.id);
    await expect(
      dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "me too" }),
    ).rejects.toMatchObject({
      code: "turn_in_progress",
    });
    await expect(
      dispatcher.runTurn({
        sessionId: s.id,
        mode: "send",
        content: "fork",
        parentId: before[0]?.id,
      }),
    ).rejects.toMatchObject({ code: "turn_in_progress" });
    // (The streaming reply's text may have been flushed meanwhile; no node was added.)
    expect((await store.nodes(s.id)).map((n) => n.id)).toEqual(before.map((n) => n.id));
    controller.abort();
    let step = await first.next();
    while (!step.done) step = await first.next();
    expect(step.value.reply.status).toBe("interrupted");
    // Once it is sealed, the session takes turns again.
    const after = await testDispatcher(store).dispatcher.runTurn({
      sessionId: s.id,
      mode: "send",
      content: "now",
    });
    expect(after.reply.status).toBe("complete");
  });

  it("[R24] two tabs sending at once: one turn runs, the other is refused, nothing lands off HEAD", async () => {
    const base = offlineProviders();
    const { dispatcher } = testDispatcher(store, {
      providers: { ...base, chat: blockingUntilAborted() },
    });
    const s = await store.createSession({});
    const controller = new AbortController();
    const results = await Promise.allSettled(
      ["tab A", "tab B"].map(async (content) => {
        const turn = dispatcher.turn({
          sessionId: s.id,
          mode: "send",
          content,
          signal: controller.signal,
        });
        const first = await turn.next();
        controller.abort();
        let step = first;
        while (!step.done) step = await turn.next();
        return step.value;
      }),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: expect.stringMatching(/^(turn_in_progress|conflict)$/),
    });
    const users = (await store.nodes(s.id)).filter((n) => n.kind === "user");
    expect(users).toHaveLength(1);
    const head = (await store.getSession(s.id)).headId;
    expect((await store.spine(s.id, head as NonNullable<typeof head>)).map((n) => n.id)).toContain(
      users[0]?.id,
    );
  });

  it("[R68] a send planned against a HEAD that another tab moved is refused with conflict", async () => {
    const { dispatcher } = testDispatcher(store);
    const s = await store.createSession({});
    const a = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "one" });
    // The dispatcher plans a send against HEAD = a.reply; another tab then checks out ROOT.
    await store.setHead(s.id, asNodeId(s.rootId ?? ""), "checkout");
    await expect(
      store.openTurn({
        sessionId: s.id,
        predecessorId: a.reply.id,
        kind: "user",
        content: "two",
        status: "complete",
        tokenCount: tokens(1),
        advanceHead: true,
        expectedHeadId: a.reply.id,
        placeholder: { metadata: {}, leaseMs: 1_000 },
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await store.nodes(s.id)).toHaveLength(3);
    expect((await store.getSession(s.id)).headId).toBe(s.rootId);
  });

  it("[R24] /compact while a reply streams on the branch is refused; nothing is written", async () => {
    const base = offlineProviders();
    const { dispatcher, bus } = testDispatcher(store, {
      providers: { ...base, chat: blockingUntilAborted() },
    });
    const compactor = new Compactor({
      store,
      bus,
      providers: base,
      count: (t, m) => countTokens(t, m),
    });
    const s = await store.createSession({});
    await store.updateMeta(s.id, (m) => ({ ...m, settings: { keepRecentTokens: 10 } }));
    const quick = testDispatcher(store).dispatcher;
    for (const q of ["a?", "b?", "c?"])
      await quick.runTurn({ sessionId: s.id, mode: "send", content: q });
    const controller = new AbortController();
    const turn = dispatcher.turn({
      sessionId: s.id,
      mode: "send",
      content: "d?",
      signal: controller.signal,
    });
    for (;;) {
      const step = await turn.next();
      if (step.done || step.value.type === "delta") break;
    }
    const count = (await store.nodes(s.id)).length;
    await expect(compactor.compact(await store.getSession(s.id))).rejects.toMatchObject({
      code: "turn_in_progress",
    });
    expect(await store.nodes(s.id)).toHaveLength(count);
    controller.abort();
    let step = await turn.next();
    while (!step.done) step = await turn.next();
    const after = await compactor.compact(await store.getSession(s.id));
    expect(after.summary).not.toBeNull();
  });
});
