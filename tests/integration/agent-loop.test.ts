import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { SessionId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";
import { behaviours } from "../support/recording-behaviours";
import {
  startRecordingServer,
  type RecordedRequest,
  type RecordingServer,
} from "../support/recording-server";
import { recordingProviders, wireCompaction } from "./support/compaction-helpers";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { testDispatcher } from "./support/dispatcher";

/**
 * Issue 11: the model drives the tools. Against the recording server (which scripts tool
 * calls), on SQLite and PostgreSQL: the agent loop, sub-agents on head-neutral side
 * branches, send_message across sessions, failures that stay answered, the round limit,
 * Stop, and `reads` equal to what the server received.
 */

type WireMessage = { role: string; content: string | null; tool_call_id?: string };
const messagesOf = (r: RecordedRequest | undefined) =>
  (r?.body?.["messages"] ?? []) as WireMessage[];

describeEachDatabase("[R92] the agent loop", (kind) => {
  let store: SessionStore;
  let server: RecordingServer;
  useFreshStore(kind, (env) => ({ store } = env));

  beforeAll(async () => {
    server = await startRecordingServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  async function session(settings: Record<string, unknown> = { tools: true }) {
    const s = await store.createSession({ title: "agent" });
    await store.updateMeta(s.id, (m) => ({ ...m, settings }));
    return s.id;
  }

  function dispatcher(mayReach?: (id: SessionId) => Promise<boolean>) {
    const { dispatcher: d } = testDispatcher(store, { providers: recordingProviders(server) });
    return {
      run: (sessionId: SessionId, content: string, signal?: AbortSignal) =>
        d.runTurn({ sessionId, mode: "send", content, mayReach, signal }),
    };
  }

  /** Every node's `reads` equals the ids of the messages its request carried. */
  async function expectReadsMatchRequests(sessionId: SessionId) {
    const nodes = await store.nodes(sessionId);
    const replies = nodes.filter((n) => n.kind === "assistant" && n.reads.length > 0);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    for (const reply of replies) {
      const sent = server.chatRequests.map(messagesOf);
      const expected = reply.reads.map((id) => byId.get(id)?.content ?? "");
      const match = sent.some(
        (messages) =>
          messages.length === expected.length &&
          messages.every((m, i) => (m.content ?? "") === expected[i]),
      );
      expect(match, `reads of ${reply.id}`).toBe(true);
    }
  }

  it("[R92] a task call runs a sub-agent on a side branch; its answer returns as the tool result", async () => {
    const s = await session();
    server.enqueue(
      behaviours.toolCalls([
        { id: "call_1", name: "task", arguments: '{"prompt":"Find the capital of France."}' },
      ]),
      behaviours.reply("Paris."),
      behaviours.reply("The sub-agent says: Paris."),
    );
    const { reply } = await dispatcher().run(s, "What is the capital of France? Delegate it.");
    expect(reply.content).toBe("The sub-agent says: Paris.");
    const session_ = await store.getSession(s);
    expect(session_.headId).toBe(reply.id);

    const spine = await store.spine(s, reply.id);
    const kinds = spine.map((n) => n.kind);
    expect(kinds).toEqual(["root", "user", "assistant", "tool", "assistant"]);
    const [, , caller, tool] = spine as [LedgerNode, LedgerNode, LedgerNode, LedgerNode];
    expect(caller.metadata.tool_calls?.[0]?.name).toBe("task");
    expect(tool.metadata.tool_call_id).toBe("call_1");
    expect(tool.content).toBe("Paris.");

    // The side branch: opens from the caller, carries callerId, never moved HEAD.
    const side = (await store.nodes(s)).filter(
      (n) => n.callerId === caller.id && n.kind !== "tool",
    );
    expect(side.map((n) => n.kind)).toEqual(["user", "assistant"]);
    expect(side[0]?.predecessorId).toBe(caller.id);
    expect(side[0]?.content).toBe("Find the capital of France.");

    // Requests: the first offered the tools; the sub-agent read the conversation + prompt;
    // the last carried the tool result.
    const [first, sub, last] = server.chatRequests;
    expect(
      (first?.body?.["tools"] as { function: { name: string } }[]).map((t) => t.function.name),
    ).toEqual(["task", "send_message"]);
    expect(messagesOf(sub).at(-1)).toMatchObject({
      role: "user",
      content: "Find the capital of France.",
    });
    expect(messagesOf(last).at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_1",
      content: "Paris.",
    });
    await expectReadsMatchRequests(s);
  });

  it("[R92] two calls in one reply run side by side; results follow in call order", async () => {
    const s = await session();
    server.enqueue(
      behaviours.toolCalls([
        { id: "a", name: "task", arguments: '{"prompt":"one"}' },
        { id: "b", name: "task", arguments: '{"prompt":"two"}' },
      ]),
      behaviours.reply("first answer"),
      behaviours.reply("second answer"),
      behaviours.reply("Both done."),
    );
    const { reply } = await dispatcher().run(s, "Do two things.");
    expect(reply.content).toBe("Both done.");
    const spine = await store.spine(s, reply.id);
    const tools = spine.filter((n) => n.kind === "tool");
    expect(tools.map((t) => t.metadata.tool_call_id)).toEqual(["a", "b"]);
    expect(new Set(tools.map((t) => t.content))).toEqual(
      new Set(["first answer", "second answer"]),
    );
    const last = messagesOf(server.chatRequests.at(-1)).slice(-2);
    expect(last.map((m) => m.tool_call_id)).toEqual(["a", "b"]);
  });

  it("[R92] bad calls are answered with errors the model can read, and the turn ends cleanly", async () => {
    const s = await session();
    server.enqueue(
      behaviours.toolCalls([
        { id: "x1", name: "task", arguments: "not json" },
        { id: "x2", name: "task", arguments: "{}" },
        { id: "x3", name: "teleport", arguments: "{}" },
      ]),
      behaviours.reply("Sorry."),
    );
    const { reply } = await dispatcher().run(s, "Break things.");
    expect(reply.content).toBe("Sorry.");
    const tools = (await store.spine(s, reply.id)).filter((n) => n.kind === "tool");
    expect(tools.map((t) => t.content)).toEqual([
      expect.stringMatching(/must be a JSON object/),
      expect.stringMatching(/needs a non-empty "prompt"/),
      expect.stringMatching(/no tool named "teleport"/),
    ]);
    expect((await store.nodes(s)).some((n) => n.status === "streaming")).toBe(false);
  });

  it("[R92] a failing sub-agent still answers its caller", async () => {
    const s = await session();
    server.enqueue(
      behaviours.toolCalls([{ id: "f", name: "task", arguments: '{"prompt":"fail"}' }]),
      behaviours.unauthorized(),
      behaviours.reply("It failed, sorry."),
    );
    const { reply } = await dispatcher().run(s, "Try.");
    const tool = (await store.spine(s, reply.id)).find((n) => n.kind === "tool");
    expect(tool?.content).toMatch(/ended error/);
    expect(reply.content).toBe("It failed, sorry.");
  });

  it("[R92] a model that keeps calling stops at the round limit with every call answered", async () => {
    const s = await session({ tools: true, toolRounds: 2 });
    const loop = behaviours.toolCalls([{ id: "again", name: "teleport", arguments: "{}" }]);
    server.enqueue(loop, loop, loop, loop);
    const { reply } = await dispatcher().run(s, "Loop forever.");
    const spine = await store.spine(s, (await store.getSession(s)).headId!);
    expect(spine.at(-1)?.kind).toBe("tool");
    expect(spine.at(-1)?.content).toMatch(/limit of 2 tool rounds/);
    expect(server.chatRequests).toHaveLength(3);
    expect(reply.metadata.tool_calls).toHaveLength(1);
  });

  it("[R92] send_message reaches an owned session and refuses a foreign or missing one", async () => {
    const s = await session();
    const target = await session({});
    const foreign = await session({});
    const owned = new Set([s, target]);
    const mayReach = (id: SessionId) => Promise.resolve(owned.has(id));
    server.enqueue(
      behaviours.toolCalls([
        {
          id: "s1",
          name: "send_message",
          arguments: JSON.stringify({ session_id: target, content: "hello there" }),
        },
        {
          id: "s2",
          name: "send_message",
          arguments: JSON.stringify({ session_id: foreign, content: "x" }),
        },
        {
          id: "s3",
          name: "send_message",
          arguments: JSON.stringify({ session_id: "01NOPE", content: "x" }),
        },
      ]),
      behaviours.reply("Hi from the other session."),
      behaviours.reply("Sent."),
    );
    await dispatcher(mayReach).run(s, "Tell the other chat hello.");
    const targetHead = await store.node(target, (await store.getSession(target)).headId!);
    expect(targetHead.content).toBe("Hi from the other session.");
    expect((await store.nodes(foreign)).length).toBe(1);
    const tools = (await store.nodes(s)).filter((n) => n.kind === "tool");
    expect(tools.map((t) => t.content)).toEqual([
      "Hi from the other session.",
      expect.stringMatching(/no conversation .* you can send to/),
      expect.stringMatching(/no conversation .* you can send to/),
    ]);
  });

  it("[R92] Stop during a sub-agent answers the caller and ends the turn", async () => {
    const s = await session();
    server.enqueue(
      behaviours.toolCalls([{ id: "h", name: "task", arguments: '{"prompt":"take forever"}' }]),
      behaviours.hang("partial thoughts"),
    );
    const controller = new AbortController();
    const running = dispatcher().run(s, "Start a long job.", controller.signal);
    await server.waitForChatRequest(2);
    controller.abort();
    await running;
    const nodes = await store.nodes(s);
    expect(nodes.some((n) => n.status === "streaming")).toBe(false);
    const tool = nodes.find((n) => n.kind === "tool");
    expect(tool?.content).toMatch(/ended interrupted/);
    expect(server.chatRequests).toHaveLength(2);
    expect((await store.getSession(s)).headId).toBe(tool?.id);
  });

  it("[R92] models without tool support are never sent tools", async () => {
    const s = await session({});
    server.enqueue(behaviours.reply("plain"));
    await dispatcher().run(s, "hello");
    expect(server.chatRequests[0]?.body).not.toHaveProperty("tools");
  });

  it("[R93] compaction waits while an agent loop is between rounds", async () => {
    const s = await session({ tools: true, keepRecentTokens: 1 });
    const { dispatcher: d, compactor } = wireCompaction(store, {
      providers: recordingProviders(server),
    });
    // Some history to compact, then a turn whose sub-agent hangs.
    for (const text of ["one", "two"]) {
      server.enqueue(behaviours.reply(`answer ${text} `.repeat(80)));
      await d.runTurn({ sessionId: s, mode: "send", content: `question ${text} `.repeat(80) });
    }
    server.enqueue(
      behaviours.toolCalls([{ id: "w", name: "task", arguments: '{"prompt":"wait"}' }]),
      behaviours.hang(),
    );
    const controller = new AbortController();
    const running = d.runTurn({
      sessionId: s,
      mode: "send",
      content: "go",
      signal: controller.signal,
    });
    await server.waitForChatRequest(4);
    await expect(compactor.compact(await store.getSession(s))).rejects.toMatchObject({
      code: "turn_in_progress",
    });
    controller.abort();
    await running;
    // Once every call is answered the branch compacts as usual.
    server.enqueue(behaviours.reply("Short."));
    const done = await compactor.compact(await store.getSession(s));
    expect(done.summary).not.toBeNull();
  });

  it("[R93] another turn is refused while this session's agent loop runs a tool", async () => {
    const s = await session();
    const target = await session({});
    const { dispatcher: d } = testDispatcher(store, { providers: recordingProviders(server) });
    const mayReach = () => Promise.resolve(true);
    server.enqueue(
      behaviours.toolCalls([
        {
          id: "slow",
          name: "send_message",
          arguments: JSON.stringify({ session_id: target, content: "take your time" }),
        },
      ]),
      behaviours.hang(),
    );
    const controller = new AbortController();
    const running = d.runTurn({
      sessionId: s,
      mode: "send",
      content: "ask the other chat",
      mayReach,
      signal: controller.signal,
    });
    // The other session's reply hangs: nothing streams in this one, yet its loop runs.
    await server.waitForChatRequest(2);
    await expect(
      d.runTurn({ sessionId: s, mode: "send", content: "meanwhile" }),
    ).rejects.toMatchObject({ code: "turn_in_progress" });
    controller.abort();
    await running;
    server.enqueue(behaviours.reply("now it is my turn"));
    const after = await d.runTurn({ sessionId: s, mode: "send", content: "and now?" });
    expect(after.reply.content).toBe("now it is my turn");
  });
});
