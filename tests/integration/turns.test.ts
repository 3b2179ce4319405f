import { beforeAll, expect, it } from "vitest";

import type { SessionStore } from "@/lib/store/session-store";
import type { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { asNodeId } from "@/lib/engine/ids";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { testDispatcher } from "./support/dispatcher";

describeEachDatabase("turns", (kind) => {
  let store: SessionStore;
  let dispatcher: Dispatcher;
  useFreshStore(kind, (env) => ({ store } = env));

  beforeAll(async () => {
    ({ dispatcher } = testDispatcher(store));
  });

  it("send appends a user node and a sealed reply; HEAD follows the reply", async () => {
    const s = await store.createSession({});
    const { user, reply } = await dispatcher.runTurn({
      sessionId: s.id,
      mode: "send",
      content: "Hello there",
    });
    expect(user?.predecessorId).toBe(s.rootId);
    expect(reply).toMatchObject({ kind: "assistant", status: "complete", predecessorId: user?.id });
    expect(reply.content).toContain('"Hello there"');
    expect(reply.reads).toEqual([s.rootId, user?.id]);
    expect(reply.tokenCount).toBeGreaterThan(0);
    expect((await store.getSession(s.id)).headId).toBe(reply.id);
  });

  it("retry forks a sibling reply and HEAD follows it; edit forks a sibling user turn", async () => {
    const s = await store.createSession({});
    const first = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "one" });
    const retry = await dispatcher.runTurn({
      sessionId: s.id,
      mode: "retry",
      targetId: first.reply.id,
    });
    expect(retry.user).toBeNull();
    expect(retry.reply.predecessorId).toBe(first.user?.id);
    expect((await store.getSession(s.id)).headId).toBe(retry.reply.id);
    const edit = await dispatcher.runTurn({
      sessionId: s.id,
      mode: "edit",
      targetId: first.user?.id,
      content: "one, edited",
    });
    expect(edit.user?.predecessorId).toBe(s.rootId);
    expect((await store.getSession(s.id)).headId).toBe(edit.reply.id);
    expect(await store.nodes(s.id)).toHaveLength(6);
  });

  it("rejects bad input before writing anything", async () => {
    const s = await store.createSession({});
    await expect(
      dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "  " }),
    ).rejects.toMatchObject({
      code: "empty_content",
    });
    await expect(
      dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "x".repeat(200_001) }),
    ).rejects.toMatchObject({ code: "content_too_large" });
    await expect(
      dispatcher.runTurn({
        sessionId: s.id,
        mode: "send",
        content: "hi",
        parentId: asNodeId("01NOPE"),
      }),
    ).rejects.toMatchObject({ code: "node_not_found" });
    expect(await store.nodes(s.id)).toHaveLength(1);
  });

  it("checkout and rewind move HEAD; rewind off the spine is refused", async () => {
    const s = await store.createSession({});
    const a = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "a" });
    const b = await dispatcher.runTurn({ sessionId: s.id, mode: "retry", targetId: a.reply.id });
    await expect(dispatcher.rewind(s.id, a.reply.id)).rejects.toMatchObject({
      code: "node_not_on_spine",
    });
    expect((await dispatcher.checkout(s.id, a.reply.id)).headId).toBe(a.reply.id);
    expect((await dispatcher.rewind(s.id, asNodeId(s.rootId ?? ""))).headId).toBe(s.rootId);
    expect(b.reply.id).not.toBe(a.reply.id);
  });
});
