import { expect, it } from "vitest";
import { asNodeId, tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import type { SessionEvent } from "@/lib/events/session-event";
import type { SessionStore } from "@/lib/store/session-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { recordEvents } from "./support/dispatcher";
import { busOf } from "./support/store-bus";

/** What an event says, without the node's full copy: its type and the ids it names. */
function gist(e: SessionEvent): string {
  switch (e.type) {
    case "node_appended":
    case "turn_finished":
      return `${e.type} ${e.node.id}`;
    case "head_moved":
      return `head_moved ${e.previousHeadId} → ${e.headId} (${e.move})`;
    case "nodes_removed":
      return `nodes_removed ${e.ids.join(",")}`;
    default:
      return e.type;
  }
}

describeEachDatabase("[R291] committed writes are announced by the store", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  async function session() {
    const s = await store.createSession({});
    const events = recordEvents(busOf(store), s.id);
    return { s, root: asNodeId(s.rootId ?? ""), events, said: () => events.map(gist) };
  }

  const node = (sessionId: SessionId, predecessorId: NodeId | "head", advanceHead = true) =>
    store.appendNode({
      sessionId,
      predecessorId,
      kind: "user",
      content: "hi",
      status: "complete",
      tokenCount: tokens(1),
      advanceHead,
    });

  it("[R291] an append announces its nodes, then HEAD's move — and only once committed", async () => {
    const { s, root, events, said } = await session();
    // Each announcement is read back from the database at once: the write is already there.
    const seen: Promise<boolean>[] = [];
    busOf(store).subscribe(s.id, (e) => {
      if (e.type === "node_appended") {
        seen.push(store.nodesById(s.id, [e.node.id]).then((found) => found.length === 1));
      }
    });
    const a = await node(s.id, "head");
    const side = await node(s.id, root, false);
    const turn = await store.openTurn({
      sessionId: s.id,
      predecessorId: "head",
      kind: "user",
      content: "and?",
      status: "complete",
      tokenCount: tokens(1),
      advanceHead: true,
      placeholder: { metadata: {}, leaseMs: 30_000 },
    });
    expect(said()).toEqual([
      `node_appended ${a.node.id}`,
      `head_moved ${root} → ${a.node.id} (send)`,
      // Off HEAD, HEAD stays: the node alone.
      `node_appended ${side.node.id}`,
      `node_appended ${turn.node.id}`,
      `node_appended ${turn.placeholder.id}`,
      `head_moved ${a.node.id} → ${turn.placeholder.id} (send)`,
    ]);
    expect(await Promise.all(seen)).toEqual([true, true, true, true]);
    // A fork the user asked to move HEAD with says so.
    const fork = await store.openReply({
      sessionId: s.id,
      predecessorId: side.node.id,
      kind: "assistant",
      content: "",
      status: "streaming",
      tokenCount: tokens(0),
      advanceHead: true,
      forkMovesHead: true,
      leaseMs: 30_000,
    });
    expect(said().slice(-1)).toEqual([
      `head_moved ${turn.placeholder.id} → ${fork.node.id} (fork)`,
    ]);
    expect(events.every((e) => e.type !== "turn_finished")).toBe(true);
  });

  it("[R291] a refused write announces nothing", async () => {
    const { s, root, said } = await session();
    const other = await store.createSession({});
    await expect(node(s.id, asNodeId(other.rootId ?? ""))).rejects.toMatchObject({
      code: "node_not_found",
    });
    await expect(store.setHead(s.id, asNodeId(other.rootId ?? ""), "checkout")).rejects.toThrow();
    const open = await store.openReply({
      sessionId: s.id,
      predecessorId: root,
      kind: "assistant",
      content: "",
      status: "streaming",
      tokenCount: tokens(0),
      advanceHead: false,
      leaseMs: 30_000,
    });
    const before = said().length;
    // A second turn while one streams is refused under the lock.
    await expect(
      store.openTurn({
        sessionId: s.id,
        predecessorId: "head",
        kind: "user",
        content: "x",
        status: "complete",
        tokenCount: tokens(1),
        advanceHead: true,
        placeholder: { metadata: {}, leaseMs: 30_000 },
      }),
    ).rejects.toMatchObject({ code: "turn_in_progress" });
    const seal = { status: "complete" as const, content: "done", tokenCount: tokens(1) };
    await store.seal(s.id, open.node.id, seal);
    // A seal lands once; the second is refused and says nothing.
    await expect(store.seal(s.id, open.node.id, seal)).rejects.toMatchObject({ code: "conflict" });
    expect(said().slice(before)).toEqual([`turn_finished ${open.node.id}`]);
  });

  it("[R291] a checkout names the HEAD it replaced as the lock found it", async () => {
    const { s, root, said } = await session();
    const a = await node(s.id, "head");
    const b = await node(s.id, root, false);
    const stale = await store.getSession(s.id);
    await store.setHead(s.id, b.node.id, "checkout");
    // Planned from a read that is now stale: the event still names the HEAD it replaced.
    expect(stale.headId).toBe(a.node.id);
    await store.setHead(s.id, root, "rewind");
    expect(said().slice(-2)).toEqual([
      `head_moved ${a.node.id} → ${b.node.id} (checkout)`,
      `head_moved ${b.node.id} → ${root} (rewind)`,
    ]);
  });

  it("[R291] a branch delete announces the removed ids, then HEAD's move off them", async () => {
    const { s, root, said } = await session();
    const keep = await node(s.id, "head");
    const gone = await node(s.id, root, false);
    const tip = await node(s.id, gone.node.id, false);
    await store.setHead(s.id, tip.node.id, "checkout");
    const ids = [gone.node.id, tip.node.id];
    await store.removeNodes(s.id, async () => ({ ids, headAfter: keep.node.id }));
    expect(said().slice(-2)).toEqual([
      `nodes_removed ${ids.join(",")}`,
      `head_moved ${tip.node.id} → ${keep.node.id} (delete_branch)`,
    ]);
    // HEAD elsewhere: the ids alone.
    const leaf = await node(s.id, root, false);
    await store.removeNodes(s.id, async () => ({ ids: [leaf.node.id], headAfter: root }));
    expect(said().slice(-1)).toEqual([`nodes_removed ${leaf.node.id}`]);
  });

  it("[R291] the session row's writes announce session_changed, an automatic title only when written", async () => {
    const { s, said } = await session();
    await store.setAutoTitle(s.id, "Auto");
    await store.renameSession(s.id, "Mine");
    // The user's title stands: the automatic one is not written, and not announced.
    expect(await store.setAutoTitle(s.id, "Auto again")).toBeNull();
    await store.updateMeta(s.id, (meta) => meta);
    expect(said()).toEqual(["session_changed", "session_changed", "session_changed"]);
  });
});
