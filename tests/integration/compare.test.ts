import { describe, expect, it } from "vitest";
import { useApp, type Routes } from "./support/routes";
import { expectSchema } from "./support/openapi-schema";

/**
 * Issue 20 on the server: two branches lined up from their fork point (`GET .../compare`)
 * and "Generate a reply" under a checked-out message (a retry whose target is a user
 * message), through the real routes on SQLite with the offline model.
 */

let routes: Routes;
useApp("sqlite", { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));

const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);

type Node = { id: string; kind: string; content: string; partial?: string; predecessorId: string };

async function session(title: string): Promise<string> {
  const res = await call("POST", "/api/sessions", { title });
  expect(res.status).toBe(201);
  return res.json["id"] as string;
}

async function turn(id: string, body: Record<string, unknown>) {
  const res = await call("POST", `/api/sessions/${id}/turns`, { ...body, stream: false });
  expect(res.status, res.text).toBe(200);
  return res.json as { user: Node | null; reply: Node };
}

const compare = (id: string, a: string, b: string) =>
  call("GET", `/api/sessions/${id}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);

describe("[R181] comparing two branches", () => {
  it("[R181] lines up two branches from their fork, row by row, as skeletons", async () => {
    const id = await session("Compare");
    const first = await turn(id, { content: "Name three rivers." });
    const second = await turn(id, { content: "And three lakes?" });
    // A retry of the first reply: a second version, continued by one more turn.
    const retried = await turn(id, { mode: "retry", targetId: first.reply.id });
    const more = await turn(id, { content: "Which is longest?" });

    const res = await compare(id, second.reply.id, more.reply.id);
    expect(res.status, res.text).toBe(200);
    expectSchema("Comparison", res.json);
    const { forkId, a, b } = res.json as { forkId: string; a: Node[]; b: Node[] };
    expect(forkId).toBe(first.user?.id);
    expect(a.map((n) => n.id)).toEqual([first.reply.id, second.user?.id, second.reply.id]);
    expect(b.map((n) => n.id)).toEqual([retried.reply.id, more.user?.id, more.reply.id]);
    // The label and metadata only: the page fetches the rows it shows whole.
    expect(b.every((n) => n.partial === "skeleton")).toBe(true);
    expect(b[1]?.content).toBe("Which is longest?");

    // A node against one further down its own branch: one column is empty.
    const along = await compare(id, first.user?.id ?? "", second.reply.id);
    expect(along.status).toBe(200);
    expect(along.json["forkId"]).toBe(first.user?.id);
    expect(along.json["a"]).toEqual([]);
    expect((along.json["b"] as Node[]).map((n) => n.id)).toEqual([
      first.reply.id,
      second.user?.id,
      second.reply.id,
    ]);
  });

  it("[R181] a node with itself, a deleted node, another session's node: clear errors", async () => {
    const id = await session("Compare errors");
    const one = await turn(id, { content: "One" });
    const retried = await turn(id, { mode: "retry", targetId: one.reply.id });
    const other = await session("Elsewhere");
    const theirs = await turn(other, { content: "Theirs" });

    const self = await compare(id, one.reply.id, one.reply.id);
    expect(self.status).toBe(400);
    expect(self.json).toMatchObject({ error: { code: "invalid_request" } });

    const foreign = await compare(id, one.reply.id, theirs.reply.id);
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ error: { code: "node_not_found" } });

    const deleted = await call("DELETE", `/api/sessions/${id}/branches/${retried.reply.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await compare(id, one.reply.id, retried.reply.id);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ error: { code: "node_not_found" } });

    const malformed = await compare(id, one.reply.id, "not an id!");
    expect(malformed.status).toBe(404);
    const missing = await call("GET", `/api/sessions/${id}/compare?a=${one.reply.id}`);
    expect(missing.status).toBe(400);
  });

  it("[R181] a summary has no branch to compare", async () => {
    const id = await session("Compare a summary");
    await call("PATCH", `/api/sessions/${id}`, { settings: { keepRecentTokens: 40 } });
    for (const q of ["First question", "Second question", "Third question"]) {
      await turn(id, { content: q });
    }
    const compacted = await call("POST", `/api/sessions/${id}/compact`);
    expect(compacted.status, compacted.text).toBe(200);
    const summary = compacted.json["summary"] as Node;
    const head = (await call("GET", `/api/sessions/${id}`)).json["headId"] as string;
    const res = await compare(id, summary.id, head);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: "invalid_target" } });
  });
});

describe("[R180] generating a reply under a checked-out message", () => {
  it("[R180] a retry of a user message writes one reply under it, and HEAD follows", async () => {
    const id = await session("Generate");
    const first = await turn(id, { content: "Tell me about owls." });
    await turn(id, { content: "And about larks?" });
    const user = first.user?.id ?? "";
    const moved = await call("POST", `/api/sessions/${id}/head`, { nodeId: user });
    expect(moved.status, moved.text).toBe(200);

    const again = await turn(id, { mode: "retry", targetId: user });
    expect(again.user).toBeNull();
    expect(again.reply.predecessorId).toBe(user);
    expect(again.reply.kind).toBe("assistant");
    const after = await call("GET", `/api/sessions/${id}`);
    expect(after.json["headId"]).toBe(again.reply.id);
    const nodes = (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as Node[];
    expect(nodes.filter((n) => n.predecessorId === user).map((n) => n.kind)).toEqual([
      "assistant",
      "assistant",
    ]);
  });
});
