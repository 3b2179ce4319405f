import { expect, it } from "vitest";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";

import type { SessionStore } from "@/lib/store/session-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";

describeEachDatabase("SessionStore basics", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  it("creates a session with a ROOT node as HEAD and lists it", async () => {
    const s = await store.createSession({ title: "First" });
    expect(s.title).toBe("First");
    expect(s.headId).toBe(s.rootId);
    const nodes = await store.nodes(s.id);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      kind: "root",
      predecessorId: null,
      seq: 0,
      status: "complete",
    });
    const page = await store.listSessions({ limit: 10 });
    expect(page.sessions.map((x) => x.id)).toContain(s.id);
  });

  it("paginates the session list with a cursor", async () => {
    for (let i = 0; i < 3; i++) await store.createSession({ title: `p${i}` });
    const first = await store.listSessions({ limit: 2 });
    expect(first.sessions).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await store.listSessions({ limit: 2, cursor: first.nextCursor ?? undefined });
    const overlap = second.sessions.filter((s) => first.sessions.some((f) => f.id === s.id));
    expect(overlap).toHaveLength(0);
  });

  it("rejects an unknown session and a node id from another session", async () => {
    const a = await store.createSession({});
    const b = await store.createSession({});
    await expect(store.getSession(asSessionId("nope"))).rejects.toMatchObject({
      code: "session_not_found",
    });
    await expect(store.node(a.id, asNodeId(b.rootId ?? ""))).rejects.toMatchObject({
      code: "node_not_found",
    });
    await expect(
      store.appendNode({
        sessionId: a.id,
        predecessorId: asNodeId(b.rootId ?? ""),
        kind: "user",
        content: "cross-session",
        status: "complete",
        tokenCount: tokens(2),
        advanceHead: true,
      }),
    ).rejects.toMatchObject({ code: "node_not_found" });
    expect(await store.nodes(a.id)).toHaveLength(1);
  });

  it("appends on HEAD advance it; a side append leaves HEAD alone", async () => {
    const s = await store.createSession({});
    const root = asNodeId(s.rootId ?? "");
    const u1 = await store.appendNode({
      sessionId: s.id,
      predecessorId: "head",
      kind: "user",
      content: "hi",
      status: "complete",
      tokenCount: tokens(1),
      advanceHead: true,
    });
    expect(u1.headMoved).toBe(true);
    const side = await store.appendNode({
      sessionId: s.id,
      predecessorId: root,
      kind: "user",
      content: "fork",
      status: "complete",
      tokenCount: tokens(1),
      advanceHead: true,
    });
    expect(side.headMoved).toBe(false);
    expect((await store.getSession(s.id)).headId).toBe(u1.node.id);
    expect(side.node.seq).toBeGreaterThan(u1.node.seq);
  });

  it("JSON metadata and reads survive the round trip", async () => {
    const s = await store.createSession({});
    const root = asNodeId(s.rootId ?? "");
    const { node } = await store.appendNode({
      sessionId: s.id,
      predecessorId: root,
      kind: "summary",
      content: "sum",
      status: "complete",
      tokenCount: tokens(1),
      advanceHead: false,
      metadata: { covers_ids: [root], model: "m" },
      reads: [root],
    });
    const back = await store.node(s.id, node.id);
    expect(back.metadata.covers_ids).toEqual([root]);
    expect(back.reads).toEqual([root]);
  });
});
