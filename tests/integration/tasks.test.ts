import { beforeEach, expect, it, afterAll, beforeAll } from "vitest";
import type { SessionStore } from "@/lib/store/session-store";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../support/recording-server";
import { messagesOf, recordingProviders } from "./support/compaction-helpers";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { recordEvents, testDispatcher } from "./support/dispatcher";

describeEachDatabase("[R20] spawned sub-agent turns", (kind) => {
  let store: SessionStore;
  let server: RecordingServer;
  useFreshStore(kind, (env) => ({ store } = env));
  beforeAll(async () => {
    server = await startRecordingServer();
  });
  afterAll(() => server?.close());
  beforeEach(() => server.reset());

  it("[R20] /task runs on a head-neutral side branch; only the caller and its result move HEAD", async () => {
    const { dispatcher, bus } = testDispatcher(store, { providers: recordingProviders(server) });
    const s = await store.createSession({});
    const first = await dispatcher.runTurn({
      sessionId: s.id,
      mode: "send",
      content: "Plan the release.",
    });
    const events = recordEvents(bus, s.id);
    server.reset();
    server.enqueue(behaviours.reply("Sub-agent: the release needs three steps."));

    const { caller, branchRootId, result } = await dispatcher.spawn({
      sessionId: s.id,
      prompt: "List the release steps",
    });

    // The caller is the manual tool call at HEAD; the result answers it.
    expect(caller).toMatchObject({ kind: "assistant", predecessorId: first.reply.id });
    const call = caller.metadata.tool_calls?.[0];
    expect(call?.name).toBe("task");
    expect(result).toMatchObject({ kind: "tool", predecessorId: caller.id, callerId: caller.id });
    expect(result.metadata.tool_call_id).toBe(call?.id);
    expect(result.content).toBe("Sub-agent: the release needs three steps.");
    expect((await store.getSession(s.id)).headId).toBe(result.id);

    // The side branch: root and reply carry callerId, and neither ever was HEAD.
    const branchRoot = await store.node(s.id, branchRootId);
    expect(branchRoot).toMatchObject({
      kind: "user",
      predecessorId: caller.id,
      callerId: caller.id,
    });
    const reply = (await store.nodes(s.id)).find((n) => n.predecessorId === branchRootId);
    expect(reply).toMatchObject({ kind: "assistant", status: "complete", callerId: caller.id });
    const moves = events.flatMap((e) => (e.type === "head_moved" ? [e.headId] : []));
    expect(moves).toEqual([caller.id, result.id]);

    // What the sub-agent sent is valid for strict servers: no tool call without its result.
    expect(server.chatRequests).toHaveLength(1);
    const sent = messagesOf(server.chatRequests[0]);
    expect(sent.some((m) => "tool_calls" in m)).toBe(false);
    expect(sent.at(-1)).toEqual({ role: "user", content: "List the release steps" });

    // The next turn of the main branch sends the call together with its result.
    server.enqueue(behaviours.reply("Main: noted."));
    await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "Thanks" });
    const next = messagesOf(server.chatRequests[1]);
    const assistantCall = next.find((m) => "tool_calls" in m);
    expect(assistantCall).toBeTruthy();
    expect(next[next.indexOf(assistantCall as (typeof next)[number]) + 1]).toMatchObject({
      role: "tool",
      tool_call_id: call?.id,
    });
  });

  it("[R20] a failing sub-agent still answers the caller's tool call", async () => {
    const { dispatcher } = testDispatcher(store, { providers: recordingProviders(server) });
    const s = await store.createSession({});
    server.enqueue(behaviours.unauthorized());
    const { caller, result } = await dispatcher.spawn({ sessionId: s.id, prompt: "Try it" });
    expect(result.metadata.tool_call_id).toBe(caller.metadata.tool_calls?.[0]?.id);
    expect(result.content).toMatch(/ended error/);
    expect((await store.getSession(s.id)).headId).toBe(result.id);
  });
});
