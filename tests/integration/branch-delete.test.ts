import { expect, it } from "vitest";
import { tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import { createLedgerIndex } from "@/lib/engine/ledger-index";
import { planDeleteBranch } from "@/lib/engine/plan-delete-branch";
import type { LedgerNode, NodeKind } from "@/lib/engine/types";
import type { LedgerSlice, SessionStore } from "@/lib/store/session-store";
import { openReply } from "./support/replies";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { recordEvents, testDispatcher } from "./support/dispatcher";
import { busOf } from "./support/store-bus";

/** The store, counting every node a branch delete's slice returns. */
function counting(store: SessionStore) {
  const seen = { nodes: 0 };
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === "removeNodes") {
        return (
          id: SessionId,
          plan: (s: unknown, slice: LedgerSlice) => Promise<never>,
        ): ReturnType<SessionStore["removeNodes"]> =>
          target.removeNodes(id, (session, slice) => {
            const count =
              <A extends unknown[]>(f: (...a: A) => Promise<LedgerNode[]>) =>
              async (...a: A) => {
                const got = await f(...a);
                seen.nodes += got.length;
                return got;
              };
            return plan(session, {
              spineAndChildren: count(slice.spineAndChildren),
              family: count(slice.family),
              subtree: count(slice.subtree),
              byIds: count(slice.byIds),
            });
          });
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { proxy, seen };
}

describeEachDatabase("[R116] branch delete reads the branch, not the ledger", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  async function add(
    sessionId: SessionId,
    predecessorId: NodeId | "head",
    kind: Exclude<NodeKind, "root">,
    extra: { callerId?: NodeId; advanceHead?: boolean } = {},
  ) {
    const { node } = await store.appendNode({
      sessionId,
      predecessorId,
      kind,
      content: `${kind} text`,
      status: "complete",
      tokenCount: tokens(2),
      advanceHead: extra.advanceHead ?? true,
      ...(extra.callerId ? { callerId: extra.callerId } : {}),
    });
    return node.id;
  }

  it("[R116] the store's plan equals the whole-ledger plan, and reads only the branch", async () => {
    const s = await store.createSession({});
    const main: NodeId[] = [];
    for (let i = 0; i < 6; i++) main.push(await add(s.id, "head", i % 2 ? "assistant" : "user"));
    // A long dead branch off the first turn: the ledger's bulk, never read by the delete.
    let p = main[1] as NodeId;
    for (let i = 0; i < 120; i++) p = await add(s.id, p, i % 2 ? "assistant" : "user");
    // Forty retried replies beside main[1]: children of a node above the fork point, which
    // the walk up from the tip never needs.
    for (let i = 0; i < 40; i++)
      await add(s.id, main[0] as NodeId, "assistant", { advanceHead: false });
    // The branch to delete: a fork off main[3] with a task branch and a notice under it.
    const f1 = await add(s.id, main[3] as NodeId, "user", { advanceHead: false });
    const f2 = await add(s.id, f1, "assistant", { advanceHead: false });
    const t1 = await add(s.id, f2, "user", { callerId: f2, advanceHead: false });
    await add(s.id, t1, "assistant", { callerId: f2, advanceHead: false });
    await add(s.id, f2, "notice", { advanceHead: false });
    // A summary covering main[0..1] and made active; HEAD on the fork.
    const summary = await store.appendSummary({
      sessionId: s.id,
      predecessorId: s.rootId as NodeId,
      kind: "summary",
      content: "sum",
      status: "complete",
      tokenCount: tokens(2),
      advanceHead: false,
      metadata: { covers_ids: [main[0] as NodeId, main[1] as NodeId] },
      metaAfter: (meta, node) => ({
        ...meta,
        _last_summary_id: node.id,
        _last_summary_text: "sum",
      }),
    });
    const session = await store.setHead(s.id, f2, "checkout");
    const expected = planDeleteBranch({
      session,
      index: createLedgerIndex(await store.nodes(s.id)),
      tipId: f2,
    });

    const { proxy, seen } = counting(store);
    // The counting proxy is not the store: its announcements are on the store's bus.
    const { dispatcher, bus } = testDispatcher(proxy, { bus: busOf(store) });
    const events = recordEvents(bus, s.id);
    const after = await dispatcher.deleteBranch(s.id, f2);
    expect(after.removed).toEqual(expected.ids);
    expect(after.removed).toHaveLength(5);
    expect(after.headId).toBe(expected.headAfter);
    expect(after.headId).toBe(main[3]);
    expect(after.meta._last_summary_id).toBe(summary.node.id);
    expect(events).toContainEqual({ type: "nodes_removed", ids: expected.ids });
    const left = await store.nodes(s.id);
    expect(left.some((n) => expected.ids.includes(n.id))).toBe(false);
    // The families from the tip up to the fork point (f2 with its task turn and notice, f1,
    // main[3] with main[4]), the subtree (5) and the summary: 14 reads of the ledger's 179
    // nodes, none of the forty retries above the fork point.
    expect(left.length + 5).toBeGreaterThan(170);
    expect(seen.nodes).toBeLessThan(20);

    // Deleting into the summary's segment retires it, as the whole-ledger plan says.
    const head = await store.getSession(s.id);
    const whole = planDeleteBranch({
      session: head,
      index: createLedgerIndex(await store.nodes(s.id)),
      tipId: p,
    });
    const retired = await dispatcher.deleteBranch(s.id, p);
    expect(retired.removed).toEqual(whole.ids);
    expect(retired.meta).toEqual(whole.metaAfter ?? head.meta);
  });

  it("[R116] refusals are the plan's: not a tip, ROOT, streaming", async () => {
    const s = await store.createSession({});
    const u = await add(s.id, "head", "user");
    await add(s.id, u, "assistant");
    const { dispatcher } = testDispatcher(store);
    await expect(dispatcher.deleteBranch(s.id, u)).rejects.toMatchObject({
      code: "not_a_branch_tip",
    });
    await expect(dispatcher.deleteBranch(s.id, s.rootId as NodeId)).rejects.toMatchObject({
      code: "node_not_deletable",
    });
    const live = await openReply(store, s.id);
    await expect(dispatcher.deleteBranch(s.id, live.id)).rejects.toMatchObject({
      code: "turn_in_progress",
    });
  });
});
