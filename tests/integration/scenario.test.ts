import { beforeAll, expect, it } from "vitest";
import { Compactor } from "@/lib/compaction/compactor";

import type { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { asNodeId, type NodeId, type SessionId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";
import {
  describeEachDatabase,
  openTestStore,
  type TestDatabase,
  useFreshStore,
} from "./support/databases";
import { wireCompaction } from "./support/compaction-helpers";

/**
 * compaction.md §8: chat → fork → checkout → compact → chat → compact → chat → restart-load
 * on a real SessionStore, checking HEAD and the rendering after every step.
 */
describeEachDatabase(
  "[R71] scenario: chat, fork, checkout, compact, chat, compact, chat, restart",
  (kind) => {
    let test: TestDatabase;
    let store: SessionStore;
    let dispatcher: Dispatcher;
    let compactor: Compactor;
    useFreshStore(kind, (env) => ({ test, store } = env));

    beforeAll(async () => {
      ({ dispatcher, compactor } = wire(store));
    });

    const wire = (s: SessionStore) => wireCompaction(s);

    async function head(id: SessionId): Promise<NodeId> {
      const h = (await store.getSession(id)).headId;
      if (!h) throw new Error("no head");
      return h;
    }

    async function spineIds(id: SessionId, from: NodeId): Promise<NodeId[]> {
      return (await store.spine(id, from)).map((n) => n.id);
    }

    async function renderedIds(id: SessionId, from?: NodeId): Promise<readonly NodeId[]> {
      return (await dispatcher.context(id, from)).ids;
    }

    it("[R71] keeps HEAD and the rendering right after every step", async () => {
      const s = await store.createSession({ title: "scenario" });
      await store.updateMeta(s.id, (m) => ({ ...m, settings: { keepRecentTokens: 160 } }));
      const root = asNodeId(s.rootId ?? "");
      const chat = async (text: string) => {
        const before = await head(s.id);
        const r = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: text });
        expect(r.user?.predecessorId).toBe(before);
        expect(await head(s.id)).toBe(r.reply.id);
        expect(r.reply.reads).toEqual(await renderedIds(s.id, r.user?.id));
        return r;
      };

      // 1. chat: three turns; the rendering is the raw spine.
      const t1 = await chat("First question about apples?");
      const t2 = await chat("Second question about bananas?");
      const t3 = await chat("Third question about cherries?");
      expect(await renderedIds(s.id)).toEqual(await spineIds(s.id, t3.reply.id));

      // 2. fork: edit the second question; HEAD follows the new branch.
      const fork = await dispatcher.runTurn({
        sessionId: s.id,
        mode: "edit",
        targetId: t2.user?.id,
        content: "Second question, edited: dates?",
      });
      expect(fork.user?.predecessorId).toBe(t1.reply.id);
      expect(await head(s.id)).toBe(fork.reply.id);
      expect(await renderedIds(s.id)).toEqual([
        root,
        t1.user?.id,
        t1.reply.id,
        fork.user?.id,
        fork.reply.id,
      ]);

      // 3. checkout the original branch.
      await dispatcher.checkout(s.id, t3.reply.id);
      expect(await head(s.id)).toBe(t3.reply.id);
      const raw = await spineIds(s.id, t3.reply.id);
      expect(await renderedIds(s.id)).toEqual(raw);

      // 4. compact: one summary node, HEAD untouched, rendering [ROOT, S, tail…].
      const c1 = await compactor.compact(await store.getSession(s.id));
      const s1 = c1.summary as LedgerNode;
      expect(s1).not.toBeNull();
      expect(await head(s.id)).toBe(t3.reply.id);
      expect(s1.predecessorId).toBe(root);
      const covers1 = s1.metadata.covers_ids ?? [];
      expect(covers1).toEqual(raw.slice(1, 1 + covers1.length));
      const r1 = await renderedIds(s.id);
      expect(r1).toEqual([root, s1.id, ...raw.slice(1 + covers1.length)]);
      expect((await store.node(s.id, r1[2] as NodeId)).kind).toBe("user");
      const meta1 = (await store.getSession(s.id)).meta;
      expect(meta1._last_summary_id).toBe(s1.id);
      expect(meta1._last_summary_text).toBe(s1.content);
      // The fork from inside the covered range renders raw.
      expect(await renderedIds(s.id, fork.reply.id)).toEqual(await spineIds(s.id, fork.reply.id));

      // 5. chat: the reply read the summary, not the turns it covers.
      const t4 = await chat("Fourth question about elderberries?");
      expect(t4.reply.reads).toContain(s1.id);
      for (const id of covers1) expect(t4.reply.reads).not.toContain(id);

      // 6. compact again: the new summary absorbs the old one and extends its segment.
      const c2 = await compactor.compact(await store.getSession(s.id));
      const s2 = c2.summary as LedgerNode;
      expect(s2).not.toBeNull();
      const covers2 = s2.metadata.covers_ids ?? [];
      expect(covers2.slice(0, covers1.length)).toEqual(covers1);
      expect(covers2.length).toBeGreaterThan(covers1.length);
      expect(covers2).not.toContain(s1.id);
      expect(s2.reads[0]).toBe(s1.id);
      expect((await store.getSession(s.id)).meta._last_summary_id).toBe(s2.id);
      expect(await head(s.id)).toBe(t4.reply.id);
      const graph = await dispatcher.graph(s.id);
      expect(graph.nodes.find((r) => r.id === s1.id)).toMatchObject({ superseded_summary: true });
      expect(graph.nodes.find((r) => r.id === s1.id)?.covers_ids).toBeUndefined();
      expect(graph.activeSummaryId).toBe(s2.id);

      // 7. chat once more.
      const t5 = await chat("Fifth question about figs?");
      const finalRendering = await renderedIds(s.id);
      expect(finalRendering.slice(0, 2)).toEqual([root, s2.id]);
      expect(finalRendering.at(-1)).toBe(t5.reply.id);

      // 8. restart-load: a fresh store over the same database sees the same HEAD and rendering.
      const reopened = await openTestStore(test);
      try {
        await reopened.store.sealOrphans({ everything: kind === "sqlite" });
        const again = wire(reopened.store);
        expect((await reopened.store.getSession(s.id)).headId).toBe(t5.reply.id);
        expect((await again.dispatcher.context(s.id)).ids).toEqual(finalRendering);
        expect((await again.dispatcher.context(s.id, fork.reply.id)).ids).toEqual(
          await spineIds(s.id, fork.reply.id),
        );
      } finally {
        await reopened.database.close();
      }
    });
  },
);
