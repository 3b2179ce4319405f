import { beforeAll, expect, it } from "vitest";
import type { Compactor } from "@/lib/compaction/compactor";
import type { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { activeSummaries, activeSummaryIds } from "@/lib/engine/active-summaries";
import { activeSetProblem } from "@/lib/engine/check-summaries";
import { asNodeId, type NodeId, type SessionId } from "@/lib/engine/ids";
import { createLedgerIndex } from "@/lib/engine/ledger-index";
import { renderContext } from "@/lib/engine/render-context";
import { sentIds } from "@/lib/engine/sent-messages";
import { spineOf } from "@/lib/engine/spine-of";
import { innerSummariesOf } from "@/lib/engine/summary-turns";
import { SUMMARY_POLICIES, type LedgerNode, type SummaryPolicy } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";
import {
  describeEachDatabase,
  openTestStore,
  type TestDatabase,
  useFreshStore,
} from "./support/databases";
import { userMessage, wireCompaction } from "./support/compaction-helpers";

/**
 * compaction.md §8 under every policy (issue 23): chat → fork → checkout → compact → chat →
 * compact → chat → compact → chat → restart-load on a real SessionStore, HEAD and the
 * rendering checked after every step, plus a fork inside a segment and the delete of a
 * branch holding one.
 */

/** Windows that make the third compaction nest (`nested`) but never merge (`segmented`). */
const WINDOW: Record<SummaryPolicy, number> = {
  "rolling-single": 4096,
  segmented: 4096,
  nested: 1024,
};

describeEachDatabase("[R253] the §8 scenario under each policy", (kind) => {
  let test: TestDatabase;
  let store: SessionStore;
  let dispatcher: Dispatcher;
  let compactor: Compactor;
  useFreshStore(kind, (env) => ({ test, store } = env));
  beforeAll(() => {
    ({ dispatcher, compactor } = wireCompaction(store));
  });

  async function session(policy: SummaryPolicy): Promise<{ id: SessionId; root: NodeId }> {
    const s = await store.createSession({ title: policy });
    await store.updateMeta(s.id, (m) => ({
      ...m,
      settings: {
        keepRecentTokens: 160,
        contextWindow: WINDOW[policy],
        autoCompact: false,
        policy,
      },
    }));
    return { id: s.id, root: asNodeId(s.rootId ?? "") };
  }

  async function head(id: SessionId): Promise<NodeId> {
    const h = (await store.getSession(id)).headId;
    if (h === null) throw new Error("no head");
    return h;
  }

  /**
   * What the engine says `from` renders to, computed from the whole ledger and meta — a path
   * independent of the dispatcher's (which reads the spine and the set by query) — and that
   * the two agree; plus that the active set is valid.
   */
  async function rendering(
    s: SessionStore,
    d: Dispatcher,
    id: SessionId,
    from?: NodeId,
  ): Promise<NodeId[]> {
    const [nodes, record] = await Promise.all([s.nodes(id), s.getSession(id)]);
    const index = createLedgerIndex(nodes);
    const active = activeSummaries(record.meta, index.get);
    expect(activeSetProblem(activeSummaryIds(record.meta), index.get)).toBeNull();
    const headId = from ?? record.headId;
    if (headId === null) throw new Error("no head");
    const expected = renderContext({
      spine: spineOf(headId, index.get),
      activeSummaries: active,
      innerSummaries: innerSummariesOf(active, index.get),
    }).ids;
    const actual = (await d.context(id, from)).ids;
    expect(actual).toEqual(expected);
    return [...actual];
  }

  const spineIds = async (id: SessionId, from: NodeId) =>
    (await store.spine(id, from)).map((n) => n.id);

  for (const policy of SUMMARY_POLICIES) {
    it(`[R253] ${policy}: HEAD and the rendering are right after every step, and after a restart`, async () => {
      const { id, root } = await session(policy);
      let turn = 0;
      const chat = async () => {
        const before = await head(id);
        const r = await dispatcher.runTurn({
          sessionId: id,
          mode: "send",
          content: userMessage(turn++),
        });
        expect(r.user?.predecessorId).toBe(before);
        expect(await head(id)).toBe(r.reply.id);
        // Provenance: the reply read exactly its prompt as sent.
        const prompt = await dispatcher.context(id, r.user?.id);
        expect(r.reply.reads).toEqual(sentIds(prompt));
        expect((await store.node(id, r.reply.id)).reads).toEqual(r.reply.reads);
        return r;
      };
      const compact = async () => {
        const h = await head(id);
        const result = await compactor.compact(await store.getSession(id));
        expect(result.summary).not.toBeNull();
        expect(await head(id)).toBe(h);
        return result;
      };

      // 1. chat: the rendering is the raw spine.
      const t1 = await chat();
      const t2 = await chat();
      const t3 = await chat();
      expect(await rendering(store, dispatcher, id)).toEqual(await spineIds(id, t3.reply.id));

      // 2. fork: edit the second message; HEAD follows the fork.
      const fork = await dispatcher.runTurn({
        sessionId: id,
        mode: "edit",
        targetId: t2.user?.id,
        content: "Second question, edited: what about the dates?",
      });
      expect(await head(id)).toBe(fork.reply.id);
      expect(await rendering(store, dispatcher, id)).toEqual([
        root,
        t1.user?.id,
        t1.reply.id,
        fork.user?.id,
        fork.reply.id,
      ]);

      // 3. checkout the first branch.
      await dispatcher.checkout(id, t3.reply.id);
      expect(await head(id)).toBe(t3.reply.id);
      const raw = await spineIds(id, t3.reply.id);
      expect(await rendering(store, dispatcher, id)).toEqual(raw);

      // 4. compact: [ROOT, S1, tail…]; the fork from inside the segment renders raw.
      const s1 = (await compact()).summary as LedgerNode;
      expect(s1.predecessorId).toBe(root);
      const covers1 = s1.metadata.covers_ids ?? [];
      expect(covers1).toEqual(raw.slice(1, 1 + covers1.length));
      expect(await rendering(store, dispatcher, id)).toEqual([
        root,
        s1.id,
        ...raw.slice(1 + covers1.length),
      ]);
      const meta1 = (await store.getSession(id)).meta;
      if (policy === "rolling-single") {
        expect(meta1._last_summary_id).toBe(s1.id);
        expect(meta1._last_summary_text).toBe(s1.content);
      } else {
        expect(meta1._active_summary_ids).toEqual([s1.id]);
        expect(meta1._last_summary_id).toBeUndefined();
      }
      expect(await rendering(store, dispatcher, id, fork.reply.id)).toEqual(
        await spineIds(id, fork.reply.id),
      );

      // 5. chat: the reply read the summary, not the turns it covers.
      const t4 = await chat();
      await chat();
      expect(t4.reply.reads).toContain(s1.id);
      for (const covered of covers1) expect(t4.reply.reads).not.toContain(covered);

      // 6. compact again.
      const s2 = (await compact()).summary as LedgerNode;
      const covers2 = s2.metadata.covers_ids ?? [];
      if (policy === "rolling-single") {
        // The new summary absorbs the old one and extends its segment.
        expect(covers2.slice(0, covers1.length)).toEqual(covers1);
        expect(s2.reads[0]).toBe(s1.id);
        expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s2.id]);
        expect((await rendering(store, dispatcher, id)).slice(0, 2)).toEqual([root, s2.id]);
      } else {
        // A new segment after S1's, hanging off its end; S1 is untouched and still active.
        expect(s2.predecessorId).toBe(covers1.at(-1));
        expect(covers2.some((c) => covers1.includes(c))).toBe(false);
        expect(s2.reads[0]).toBe(s1.id);
        expect(await store.node(id, s1.id)).toEqual(s1);
        expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s1.id, s2.id]);
        expect((await rendering(store, dispatcher, id)).slice(0, 3)).toEqual([root, s1.id, s2.id]);
      }

      // 7. chat, 8. compact a third time.
      await chat();
      await chat();
      await chat();
      const third = await compact();
      const s3 = third.summary as LedgerNode;
      const after = activeSummaryIds((await store.getSession(id)).meta);
      const view3 = await rendering(store, dispatcher, id);
      if (policy === "rolling-single") {
        expect(after).toEqual([s3.id]);
        expect(view3.slice(0, 2)).toEqual([root, s3.id]);
      } else if (policy === "segmented") {
        expect(after).toEqual([s1.id, s2.id, s3.id]);
        expect(view3.slice(0, 4)).toEqual([root, s1.id, s2.id, s3.id]);
      } else {
        // The summaries outgrew a quarter of the window: S1 and S2 were nested.
        const nest = third.nestedSummary as LedgerNode;
        expect(nest).toBeDefined();
        expect(nest.metadata.covers_ids).toEqual([s1.id, s2.id]);
        expect(nest.metadata.covers_summaries).toBe(true);
        expect(nest.predecessorId).toBe(root);
        expect(after).toEqual([nest.id, s3.id]);
        expect(view3.slice(0, 3)).toEqual([root, nest.id, s3.id]);
      }

      // 9. chat once more: the reply read the summaries, in order.
      const t7 = await chat();
      expect(t7.reply.reads.slice(0, view3.indexOf(s3.id) + 1)).toEqual(
        view3.slice(0, view3.indexOf(s3.id) + 1),
      );
      const final = await rendering(store, dispatcher, id);
      const graph = await dispatcher.graph(id);
      expect(graph.activeSummaryIds).toEqual(after);
      for (const active of after) {
        expect(graph.nodes.find((r) => r.id === active)?.covers_ids?.length).toBeGreaterThan(0);
      }

      // 10. restart-load: a fresh store over the same database sees the same HEAD and
      // renderings, and the replies' stored reads expand to what they were sent.
      const reopened = await openTestStore(test);
      try {
        await reopened.store.sealOrphans({ everything: kind === "sqlite" });
        const again = wireCompaction(reopened.store);
        expect((await reopened.store.getSession(id)).headId).toBe(t7.reply.id);
        expect(await rendering(reopened.store, again.dispatcher, id)).toEqual(final);
        expect(await rendering(reopened.store, again.dispatcher, id, fork.reply.id)).toEqual(
          await spineIds(id, fork.reply.id),
        );
        expect((await reopened.store.node(id, t7.reply.id)).reads).toEqual(t7.reply.reads);
      } finally {
        await reopened.database.close();
      }
    });
  }

  for (const policy of ["segmented", "nested"] as const) {
    it(`[R253] ${policy}: a fork inside a segment, compacted, retires the segment it overlaps; the trunk renders that stretch raw`, async () => {
      const { id, root } = await session(policy);
      const turns = [];
      for (let i = 0; i < 4; i += 1) {
        turns.push(
          await dispatcher.runTurn({ sessionId: id, mode: "send", content: userMessage(i) }),
        );
      }
      const s1 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
      for (let i = 4; i < 7; i += 1) {
        await dispatcher.runTurn({ sessionId: id, mode: "send", content: userMessage(i) });
      }
      const s2 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
      const trunk = await head(id);
      expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s1.id, s2.id]);
      // Retry the first reply of segment 2: a fork that shares only its first turn.
      const firstOfSegment2 = (s2.metadata.covers_ids ?? [])[1] as NodeId;
      const fork = await dispatcher.runTurn({
        sessionId: id,
        mode: "retry",
        targetId: firstOfSegment2,
      });
      expect((await rendering(store, dispatcher, id)).slice(0, 2)).toEqual([root, s1.id]);
      for (let i = 7; i < 10; i += 1) {
        await dispatcher.runTurn({ sessionId: id, mode: "send", content: userMessage(i) });
      }
      const s3 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
      // The fork's segment takes the shared turn and its own; S2 is retired, S1 stays.
      expect(s3.metadata.covers_ids?.[0]).toBe((s2.metadata.covers_ids ?? [])[0]);
      expect(s3.metadata.covers_ids).toContain(fork.reply.id);
      expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s1.id, s3.id]);
      expect((await rendering(store, dispatcher, id)).slice(0, 3)).toEqual([root, s1.id, s3.id]);
      // The trunk reads S1 and, where S2 stood, its turns raw.
      const trunkView = await rendering(store, dispatcher, id, trunk);
      expect(trunkView.slice(0, 2)).toEqual([root, s1.id]);
      for (const covered of s2.metadata.covers_ids ?? []) expect(trunkView).toContain(covered);
      const graph = await dispatcher.graph(id);
      expect(graph.nodes.find((r) => r.id === s2.id)?.superseded_summary).toBe(true);
      expect(graph.nodes.find((r) => r.id === fork.reply.id)?.rawFork).toBe(false);
    });

    it(`[R253] ${policy}: deleting a branch that holds a segment retires that summary only`, async () => {
      const { id, root } = await session(policy);
      for (let i = 0; i < 4; i += 1) {
        await dispatcher.runTurn({ sessionId: id, mode: "send", content: userMessage(i) });
      }
      const s1 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
      const trunk = await head(id);
      // A branch from the trunk's tip, long enough to be compacted on its own.
      for (let i = 4; i < 8; i += 1) {
        await dispatcher.runTurn({ sessionId: id, mode: "send", content: userMessage(i) });
      }
      const branchTip = await head(id);
      await dispatcher.runTurn({
        sessionId: id,
        mode: "send",
        content: "Back on the trunk",
        parentId: trunk,
      });
      const trunkTip = await head(id);
      await dispatcher.checkout(id, branchTip);
      const s2 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
      expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s1.id, s2.id]);
      await dispatcher.checkout(id, trunkTip);
      const { removed } = await dispatcher.deleteBranch(id, branchTip);
      expect(removed).toContain(branchTip);
      // S2 hangs off the trunk, where its segment began: it stays, as a relic.
      expect(
        (await dispatcher.graph(id)).nodes.find((r) => r.id === s2.id)?.superseded_summary,
      ).toBe(true);
      const meta = (await store.getSession(id)).meta;
      expect(activeSummaryIds(meta)).toEqual([s1.id]);
      expect(await rendering(store, dispatcher, id)).toEqual([
        root,
        s1.id,
        ...(await spineIds(id, trunkTip)).slice(1 + (s1.metadata.covers_ids ?? []).length),
      ]);
    });
  }

  it("[R253] switching policy rewrites no node and changes no rendering; the next compaction follows the new policy", async () => {
    const { id, root } = await session("segmented");
    const send = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        await dispatcher.runTurn({ sessionId: id, mode: "send", content: userMessage(i) });
      }
    };
    const setPolicy = (policy: SummaryPolicy) =>
      store.updateMeta(id, (m) => ({ ...m, settings: { ...m.settings, policy } }));
    const everyRendering = async () => {
      const nodes = await store.nodes(id);
      const out: Record<string, NodeId[]> = {};
      for (const n of nodes) {
        if (n.kind === "summary" || n.kind === "notice") continue;
        out[n.id] = await rendering(store, dispatcher, id, n.id);
      }
      return out;
    };
    await send(4);
    const s1 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
    await send(3);
    const s2 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
    await send(1);
    expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s1.id, s2.id]);
    const nodesBefore = await store.nodes(id);
    const before = await everyRendering();

    // segmented → nested → rolling-single: the set and every rendering stay as they were.
    for (const policy of ["nested", "rolling-single"] as const) {
      await setPolicy(policy);
      expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s1.id, s2.id]);
      expect(await everyRendering()).toEqual(before);
      expect(await store.nodes(id)).toEqual(nodesBefore);
    }

    // Under rolling-single the next compaction absorbs the whole set into one summary of
    // real turns, stored the rolling way; no earlier node changed.
    await send(3);
    const s3 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
    const meta = (await store.getSession(id)).meta;
    expect(activeSummaryIds(meta)).toEqual([s3.id]);
    expect(meta._last_summary_id).toBe(s3.id);
    expect(meta._active_summary_ids).toBeUndefined();
    expect(s3.predecessorId).toBe(root);
    expect(s3.metadata.covers_summaries).toBeUndefined();
    expect(s3.metadata["absorbed_summary_ids"]).toEqual([s1.id, s2.id]);
    const covers = s3.metadata.covers_ids ?? [];
    for (const c of [...(s1.metadata.covers_ids ?? []), ...(s2.metadata.covers_ids ?? [])]) {
      expect(covers).toContain(c);
    }
    const after = new Map((await store.nodes(id)).map((n) => [n.id, n]));
    for (const n of nodesBefore) expect(after.get(n.id)).toEqual(n);

    // rolling → segmented starts the set with the current summary: the next one is added.
    await setPolicy("segmented");
    expect(await rendering(store, dispatcher, id)).toContain(s3.id);
    await send(3);
    const s4 = (await compactor.compact(await store.getSession(id))).summary as LedgerNode;
    expect(activeSummaryIds((await store.getSession(id)).meta)).toEqual([s3.id, s4.id]);
    expect((await rendering(store, dispatcher, id)).slice(0, 3)).toEqual([root, s3.id, s4.id]);
  });
});
