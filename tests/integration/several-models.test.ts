import { afterAll, beforeEach, expect, it, vi } from "vitest";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { behaviours, type Behaviour } from "../support/recording-behaviours";
import { startRecordingServer, type RecordedRequest } from "../support/recording-server";
import { describeEachDatabase } from "./support/databases";
import { expectSchema } from "./support/openapi-schema";
import { useApp, type Routes } from "./support/routes";

/**
 * A turn of several models (issue 22) through the routes on SQLite and PostgreSQL against
 * the recording server: one user node, one reply per model under it, every model sent the
 * same prompt, HEAD on the first.
 */

const MODELS = ["chat-model", "model-b", "model-c"];
/** Requests whose last message is `question` hang until interrupted; others echo. */
let hangOn: string | null = null;
const lastMessage = (r: RecordedRequest) =>
  ((r.body?.["messages"] ?? []) as { content: string }[]).at(-1)?.content;
const server = await startRecordingServer({
  models: MODELS,
  fallback: (r): Behaviour =>
    hangOn !== null && lastMessage(r) === hangOn
      ? behaviours.hang("Friday")
      : behaviours.reply(`Answer to: ${lastMessage(r) ?? ""}`),
});
/** The requests that asked `question` (a session's titling asks too, on its own). */
const asking = (question: string) => server.chatRequests.filter((r) => lastMessage(r) === question);
afterAll(() => server.close());

describeEachDatabase("[R234] a turn of several models", (kind) => {
  let routes: Routes | undefined;
  useApp(
    kind,
    { SPINDLE_AUTH: "off", OPENAI_BASE_URL: server.url, SPINDLE_MODEL: "chat-model" },
    (app) => ({ routes } = app),
  );
  const call = (...args: Parameters<Routes["call"]>) => {
    if (!routes) throw new Error("the app is not up");
    return routes.call(...args);
  };
  const nodes = async (id: string) =>
    (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as LedgerNode[];
  const session = async () => {
    const created = await call("POST", "/api/sessions", { title: "Several" });
    const s = created.json as unknown as SessionRecord;
    const first = await call("POST", `/api/sessions/${s.id}/turns`, {
      content: "We ship on Friday.",
      stream: false,
    });
    expect(first.status, first.text).toBe(200);
    return s;
  };
  beforeEach(() => server.reset());

  it("[R234] sends N identical prompts and writes N sibling replies under one user node; HEAD on the first", async () => {
    const s = await session();
    const before = await nodes(s.id);
    const res = await call("POST", `/api/sessions/${s.id}/turns`, {
      content: "Which day do we ship?",
      models: MODELS,
      stream: false,
    });
    expect(res.status, res.text).toBe(200);
    expectSchema("TurnResult", res.json);
    const user = res.json["user"] as LedgerNode;
    const replies = res.json["replies"] as LedgerNode[];
    expect(replies.map((r) => r.metadata.model)).toEqual(MODELS);
    expect((res.json["reply"] as LedgerNode).id).toBe(replies[0]?.id);
    // One request per model, the same prompt each time.
    const asked = asking("Which day do we ship?");
    expect(asked).toHaveLength(MODELS.length);
    expect(new Set(asked.map((r) => r.body?.["model"]))).toEqual(new Set(MODELS));
    const prompts = asked.map((r) => JSON.stringify(r.body?.["messages"]));
    expect(new Set(prompts).size).toBe(1);
    // One user node, N complete siblings under it with the same reads; nothing else.
    const after = await nodes(s.id);
    expect(after).toHaveLength(before.length + 1 + MODELS.length);
    expect(after.filter((n) => n.kind === "user" && n.content === "Which day do we ship?")).toEqual(
      [expect.objectContaining({ id: user.id })],
    );
    const siblings = after.filter((n) => n.predecessorId === user.id);
    expect(siblings.map((n) => [n.kind, n.status])).toEqual(
      MODELS.map(() => ["assistant", "complete"]),
    );
    const reads = siblings.map((n) => JSON.stringify(n.reads));
    expect(new Set(reads).size).toBe(1);
    expect(siblings[0]?.reads.at(-1)).toBe(user.id);
    const head = (await call("GET", `/api/sessions/${s.id}`)).json["headId"];
    expect(head).toBe(replies[0]?.id);
  });

  it("[R234] the replies stream concurrently, each sealed on its own", async () => {
    const s = await session();
    hangOn = "Ship day?";
    const turn = call("POST", `/api/sessions/${s.id}/turns`, {
      content: "Ship day?",
      models: MODELS.slice(0, 2),
    });
    // Both requests are out while the first still hangs: they run at once.
    while (asking("Ship day?").length < 2) await new Promise((r) => setTimeout(r, 20));
    hangOn = null;
    // A request goes out while its placeholder's claim commits ([R292]): both follow.
    await vi.waitFor(async () => {
      const streaming = (await nodes(s.id)).filter((n) => n.status === "streaming");
      expect(streaming.map((n) => n.metadata.model).sort()).toEqual(MODELS.slice(0, 2).sort());
    });
    server.interrupt("destroy");
    const res = await turn;
    expect(res.type).toContain("text/event-stream");
    const events = [...res.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    // The user node and two replies, each ending once.
    expect(events.filter((e) => e === "node")).toHaveLength(3);
    expect(events.filter((e) => e === "done" || e === "error")).toHaveLength(2);
    const sealed = (await nodes(s.id)).filter((n) => n.status === "streaming");
    expect(sealed).toEqual([]);
  });

  it("[R234] duplicates, fewer than 2 or more than 4 models, or models with a retry: 400, nothing written", async () => {
    const s = await session();
    const before = await nodes(s.id);
    const bad = [
      { content: "x", models: [] },
      { content: "x", models: ["chat-model"] },
      { content: "x", models: ["chat-model", "chat-model"] },
      { content: "x", models: ["a", "b", "c", "d", "e"] },
      { content: "x", models: ["chat-model", "model-b"], model: "model-c" },
      { mode: "retry", targetId: before.at(-1)?.id, models: ["chat-model", "model-b"] },
    ];
    for (const body of bad) {
      const res = await call("POST", `/api/sessions/${s.id}/turns`, { ...body, stream: false });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect((res.json["error"] as { code: string }).code).toBe("invalid_request");
    }
    expect(asking("x")).toHaveLength(0);
    expect(await nodes(s.id)).toEqual(before);
  });
});
