import { afterAll, beforeEach, expect, it, vi } from "vitest";
import { SUMMARY_PREFIX } from "@/lib/engine/render-message";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer, type RecordedRequest } from "../support/recording-server";
import { describeEachDatabase } from "./support/databases";
import { expectSchema } from "./support/openapi-schema";
import { useApp, type Routes } from "./support/routes";

/**
 * Replays (issue 22) through the routes on SQLite and PostgreSQL against the recording
 * server, which keeps every request exactly as it arrived: an exact replay sends the
 * original's request again, an expanded one the originals where the summary stood, and
 * neither moves HEAD or touches a node.
 */

type Message = { role: string; content: string };
const messagesOf = (r: RecordedRequest | undefined) => (r?.body?.["messages"] ?? []) as Message[];
/** A request body without its transport fields (how the answer travels, not what is asked). */
function asked(r: RecordedRequest | undefined): Record<string, unknown> {
  const { stream: _s, stream_options: _o, ...rest } = r?.body ?? {};
  return rest;
}

const TURNS = [
  "Our contact at the processor is Priya Raman; she signs off on webhook changes.",
  "The invoice run must finish within 83 minutes, finance says.",
  "I opened ticket BILL-2251 to track the cutover checklist.",
  "OK, decided: we'll copy the data with logical replication instead of dual writes.",
  "Remind me to rotate the replication password before we finish.",
  "What should we monitor on Monday?",
];

const server = await startRecordingServer({ models: ["chat-model", "other-model"] });
afterAll(() => server.close());

describeEachDatabase("[R230] replays of replies", (kind) => {
  let routes: Routes | undefined;
  useApp(
    kind,
    {
      SPINDLE_AUTH: "off",
      OPENAI_BASE_URL: server.url,
      SPINDLE_MODEL: "chat-model",
      SPINDLE_SUMMARY_MODEL: "chat-model",
    },
    (app) => ({ routes } = app),
  );
  const call = (...args: Parameters<Routes["call"]>) => {
    if (!routes) throw new Error("the app is not up");
    return routes.call(...args);
  };
  const nodes = async (id: string) =>
    (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as LedgerNode[];
  const node = async (sessionId: string, id: string) =>
    (await nodes(sessionId)).find((n) => n.id === id) as LedgerNode;
  const headOf = async (id: string) =>
    (await call("GET", `/api/sessions/${id}`)).json["headId"] as string;
  beforeEach(() => server.reset());

  /**
   * A session of the turns above compacted, then one more turn: its reply read the summary.
   * Answers the session, the summary, that reply and the request that produced it.
   */
  async function compactedReply(options: { long?: boolean } = {}) {
    const created = await call("POST", "/api/sessions", { title: "Replay" });
    expect(created.status, created.text).toBe(201);
    const session = created.json as unknown as SessionRecord;
    const background = `Background notes: ${"the ledger keeps every invoice line ".repeat(60)}`;
    for (const content of options.long ? [background, ...TURNS] : TURNS) {
      const turn = await call("POST", `/api/sessions/${session.id}/turns`, {
        content,
        stream: false,
      });
      expect(turn.status, turn.text).toBe(200);
    }
    server.enqueue(behaviours.reply("Goal: move billing. Contact Priya Raman; ticket BILL-2251."));
    const compact = await call("POST", `/api/sessions/${session.id}/compact`);
    expect(compact.status, compact.text).toBe(200);
    const summary = compact.json["summary"] as LedgerNode;
    expect(summary?.kind).toBe("summary");
    const turn = await call("POST", `/api/sessions/${session.id}/turns`, {
      content: "And who signs off on the webhook changes?",
      stream: false,
    });
    expect(turn.status, turn.text).toBe(200);
    const request = server.chatRequests.at(-1);
    const reply = await node(session.id, (turn.json["reply"] as LedgerNode).id);
    expect(reply.reads).toContain(summary.id);
    return { session, summary, reply, request };
  }

  it("[R230] an exact replay sends the original's request byte for byte and adds a sibling; HEAD stays", async () => {
    const { session, reply, request } = await compactedReply();
    const before = await nodes(session.id);
    const head = await headOf(session.id);
    const sent = server.chatRequests.length;
    const res = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: reply.id,
      stream: false,
    });
    expect(res.status, res.text).toBe(201);
    expectSchema("Node", res.json["reply"]);
    const replayRequest = server.chatRequests[sent];
    expect(server.chatRequests).toHaveLength(sent + 1);
    // The same messages, byte for byte, and the same request apart from transport fields.
    expect(JSON.stringify(messagesOf(replayRequest))).toBe(JSON.stringify(messagesOf(request)));
    expect(asked(replayRequest)).toEqual(asked(request));
    const replay = await node(session.id, (res.json["reply"] as LedgerNode).id);
    expect(replay).toMatchObject({
      kind: "assistant",
      status: "complete",
      predecessorId: reply.predecessorId,
      reads: reply.reads,
      metadata: { model: "chat-model", replay_of: reply.id },
    });
    expect(replay.metadata).not.toHaveProperty("expanded");
    // [R236] Like every reply, it records how long the model took (from the prompt being sent).
    expect(replay.metadata["timing"]).toEqual({
      firstTokenMs: expect.any(Number),
      totalMs: expect.any(Number),
    });
    // Nothing else changed, HEAD included.
    expect(await headOf(session.id)).toBe(head);
    const after = await nodes(session.id);
    expect(after.filter((n) => n.id !== replay.id)).toEqual(before);
  });

  it("[R230] a replay on another model sends the same messages to that model", async () => {
    const { session, reply, request } = await compactedReply();
    const head = await headOf(session.id);
    const res = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: reply.id,
      model: "other-model",
      stream: false,
    });
    expect(res.status, res.text).toBe(201);
    const replayRequest = server.chatRequests.at(-1);
    expect(replayRequest?.body?.["model"]).toBe("other-model");
    expect(JSON.stringify(messagesOf(replayRequest))).toBe(JSON.stringify(messagesOf(request)));
    expect(res.json["reply"]).toMatchObject({
      metadata: { model: "other-model", replay_of: reply.id },
    });
    expect(await headOf(session.id)).toBe(head);
  });

  it("[R231] an expanded replay sends the originals in spine order where the summary stood, and reads them", async () => {
    const { session, summary, reply, request } = await compactedReply();
    const head = await headOf(session.id);
    const all = await nodes(session.id);
    const covered = (summary.metadata.covers_ids ?? []).map(
      (id) => all.find((n) => n.id === id) as LedgerNode,
    );
    expect(covered.length).toBeGreaterThan(1);
    const res = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: reply.id,
      expand: [summary.id],
      stream: false,
    });
    expect(res.status, res.text).toBe(201);
    const original = messagesOf(request);
    const at = original.findIndex((m) => m.content.startsWith(SUMMARY_PREFIX));
    expect(at).toBeGreaterThan(0);
    const expected = [
      ...original.slice(0, at),
      ...covered.map((n) => ({ role: n.kind, content: n.content })),
      ...original.slice(at + 1),
    ];
    expect(messagesOf(server.chatRequests.at(-1))).toEqual(expected);
    const replay = await node(session.id, (res.json["reply"] as LedgerNode).id);
    const readsAt = reply.reads.indexOf(summary.id);
    expect(replay.reads).toEqual([
      ...reply.reads.slice(0, readsAt),
      ...covered.map((n) => n.id),
      ...reply.reads.slice(readsAt + 1),
    ]);
    expect(replay.metadata).toMatchObject({
      replay_of: reply.id,
      expanded: [summary.id],
      expanded_turns: covered.length,
    });
    expect(await headOf(session.id)).toBe(head);
    // "all" expands the same single summary.
    const everything = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: reply.id,
      expand: "all",
      stream: false,
    });
    expect(messagesOf(server.chatRequests.at(-1))).toEqual(expected);
    expect((everything.json["reply"] as LedgerNode).metadata["expanded"]).toEqual([summary.id]);
  });

  it("[R230] streams like a turn by default: node, deltas, done; HEAD stays", async () => {
    const { session, reply } = await compactedReply();
    const head = await headOf(session.id);
    server.enqueue(behaviours.reply("Priya Raman signs off."));
    const res = await call("POST", `/api/sessions/${session.id}/replays`, { nodeId: reply.id });
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/event-stream");
    const events = [...res.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("node");
    expect(events).toContain("delta");
    expect(events.at(-1)).toBe("done");
    const replays = (await nodes(session.id)).filter((n) => n.metadata["replay_of"] === reply.id);
    expect(replays.map((n) => [n.content, n.status])).toEqual([
      ["Priya Raman signs off.", "complete"],
    ]);
    expect(await headOf(session.id)).toBe(head);
  });

  it("[R232] refuses what cannot be replayed with a clear code, writing nothing", async () => {
    const { session, summary, reply } = await compactedReply({ long: true });
    const all = await nodes(session.id);
    const user = all.find((n) => n.kind === "user") as LedgerNode;
    const replay = (body: Record<string, unknown>, id: string = session.id) =>
      call("POST", `/api/sessions/${id}/replays`, { stream: false, ...body });
    const codeOf = async (p: ReturnType<typeof replay>) => {
      const r = await p;
      return [r.status, (r.json["error"] as { code: string } | undefined)?.code];
    };
    expect(await codeOf(replay({ nodeId: user.id }))).toEqual([409, "not_a_reply"]);
    expect(await codeOf(replay({ nodeId: summary.id }))).toEqual([409, "not_a_reply"]);
    expect(await codeOf(replay({ nodeId: "01UNKNOWNNODE" }))).toEqual([404, "node_not_found"]);
    expect(await codeOf(replay({ nodeId: reply.id, expand: [user.id] }))).toEqual([
      400,
      "invalid_request",
    ]);
    expect(await codeOf(replay({ nodeId: reply.id, expand: [] }))).toEqual([
      400,
      "invalid_request",
    ]);
    expect(await codeOf(replay({ nodeId: reply.id, extra: 1 }))).toEqual([400, "invalid_request"]);
    expect(await codeOf(replay({ nodeId: reply.id }, "01NOSUCHSESSION"))).toEqual([
      404,
      "session_not_found",
    ]);
    // Another session's reply is not found in this one.
    const other = (await call("POST", "/api/sessions", {})).json["id"] as string;
    expect(await codeOf(replay({ nodeId: reply.id }, other))).toEqual([404, "node_not_found"]);
    // An expanded prompt larger than the window: 409 before any call.
    const patched = await call("PATCH", `/api/sessions/${session.id}`, {
      settings: { contextWindow: 256 },
    });
    expect(patched.status, patched.text).toBe(200);
    const sent = server.chatRequests.length;
    expect(await codeOf(replay({ nodeId: reply.id, expand: "all" }))).toEqual([
      409,
      "prompt_too_large",
    ]);
    expect(server.chatRequests).toHaveLength(sent);
    expect(await nodes(session.id)).toEqual(all);
  });

  it("[R232] a deleted reply is gone (404); a streaming one is 409 reply_streaming", async () => {
    const { session, reply } = await compactedReply();
    // A retry forks a second reply; deleting the first branch removes the original.
    const retry = await call("POST", `/api/sessions/${session.id}/turns`, {
      mode: "retry",
      targetId: reply.id,
      stream: false,
    });
    expect(retry.status, retry.text).toBe(200);
    const deleted = await call("DELETE", `/api/sessions/${session.id}/branches/${reply.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: reply.id,
      stream: false,
    });
    expect([gone.status, (gone.json["error"] as { code: string }).code]).toEqual([
      404,
      "node_not_found",
    ]);

    server.enqueue(behaviours.hang("Thinking"));
    const sent = server.chatRequests.length;
    const turn = call("POST", `/api/sessions/${session.id}/turns`, { content: "Slow one" });
    await server.waitForChatRequest(sent + 1);
    // The request goes out while the claim commits ([R292]): the placeholder follows it.
    const streaming = await vi.waitFor(async () => {
      const found = (await nodes(session.id)).find((n) => n.status === "streaming");
      if (found === undefined) throw new Error("no streaming reply yet");
      return found;
    });
    expect(streaming.kind).toBe("assistant");
    const busy = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: streaming.id,
      stream: false,
    });
    expect([busy.status, (busy.json["error"] as { code: string }).code]).toEqual([
      409,
      "reply_streaming",
    ]);
    server.interrupt("destroy");
    await turn;
  });

  it("[R233] a reply without recorded reads is no_provenance; an unknown model fails the replay on its reply", async () => {
    const { session, reply } = await compactedReply();
    const exported = await call("GET", `/api/sessions/${session.id}/export?format=json`);
    const file = exported.json as { nodes: { id: string; reads: string[] }[] };
    for (const n of file.nodes) if (n.id === reply.id) n.reads = [];
    const imported = await call("POST", "/api/import", JSON.stringify(file));
    expect(imported.status, imported.text).toBe(201);
    const copyId = imported.json["id"] as string;
    const copies = await nodes(copyId);
    const bare = copies.find((n) => n.kind === "assistant" && n.reads.length === 0);
    expect(bare?.content).toBe(reply.content);
    const res = await call("POST", `/api/sessions/${copyId}/replays`, {
      nodeId: bare?.id,
      stream: false,
    });
    expect([res.status, (res.json["error"] as { code: string }).code]).toEqual([
      409,
      "no_provenance",
    ]);
    expect(await nodes(copyId)).toEqual(copies);

    server.enqueue(
      behaviours.error(404, {
        error: { message: "The model `nope` does not exist", type: "invalid_request_error" },
      }),
    );
    const head = await headOf(session.id);
    const failed = await call("POST", `/api/sessions/${session.id}/replays`, {
      nodeId: reply.id,
      model: "nope",
      stream: false,
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const written = failed.json["reply"] as LedgerNode;
    expect(written).toMatchObject({
      status: "error",
      metadata: { model: "nope", replay_of: reply.id },
    });
    expect(await headOf(session.id)).toBe(head);
  });
});
