import { expect, it } from "vitest";
import { isEngineError } from "@/lib/engine/errors";
import { asNodeId, tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import type { TurnCompaction } from "@/lib/compaction/turn-compaction";
import { createExtractiveSummarizer } from "@/lib/llm/extractive-summarizer";
import { type SessionStore } from "@/lib/store/session-store";
import type { Database } from "@/lib/db/client";
import {
  chat,
  headOf,
  offlineProviders,
  summaries,
  wireCompaction,
  withSummarizer,
  gatedSummarizer,
} from "./support/compaction-helpers";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { testDispatcher } from "./support/dispatcher";
import { openTestSessionStore } from "./support/store-bus";

/**
 * Issue 9: every save is checked where it lands. Writes that depend on what was read before
 * a slow step (a summariser call) compare and swap under the write lock.
 */

/**
 * A summariser that holds every call until `release()`; `arrived(n)` resolves once n calls
 * are waiting, so a test can line up a race deterministically.
 */
describeEachDatabase("[R83] integrity of saves", (kind) => {
  let store: SessionStore;
  let database: Database;
  useFreshStore(kind, (env) => ({ store, database } = env));

  async function conversation(turns: number) {
    const gated = gatedSummarizer(createExtractiveSummarizer());
    const wired = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), gated.summarizer),
      serverKeepRecentTokens: 1,
      turnCompaction: false,
    });
    const s = await store.createSession({ title: "integrity" });
    await chat(wired.dispatcher, s.id, turns);
    return { ...wired, gated, sessionId: s.id };
  }

  async function expectOneValidActiveSummary(sessionId: SessionId) {
    const session = await store.getSession(sessionId);
    const active = session.meta._last_summary_id;
    expect(active).toBeDefined();
    const node = await store.node(sessionId, active!);
    const covers = node.metadata.covers_ids ?? [];
    expect(covers.length).toBeGreaterThan(0);
    expect((await store.nodesById(sessionId, covers)).length).toBe(covers.length);
    expect(session.meta._last_summary_text).toBe(node.content);
  }

  it("[R83] two concurrent /compact calls leave exactly one active summary whose covered ids exist", async () => {
    const { compactor, gated, sessionId } = await conversation(4);
    const session = await store.getSession(sessionId);
    const first = compactor.compact(session);
    const second = compactor.compact(await store.getSession(sessionId));
    await gated.arrived(2);
    gated.release();
    const results = await Promise.allSettled([first, second]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const reason = (lost[0] as PromiseRejectedResult).reason as unknown;
    expect(isEngineError(reason) && reason.code).toBe("compaction_conflict");
    expect(await summaries(store, sessionId)).toHaveLength(1);
    await expectOneValidActiveSummary(sessionId);
  });

  it("[R83] a summary planned against S0 never replaces a newer S1", async () => {
    const { compactor, dispatcher, gated, sessionId } = await conversation(4);
    gated.release();
    const s0 = (await compactor.compact(await store.getSession(sessionId))).summary;
    expect(s0).not.toBeNull();
    await chat(dispatcher, sessionId, 2, 10);
    // Plan B against S0 and hold it; meanwhile S1 lands.
    const slow = gatedSummarizer(createExtractiveSummarizer());
    const late = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), slow.summarizer),
      serverKeepRecentTokens: 1,
      turnCompaction: false,
    });
    const planB = late.compactor.compact(await store.getSession(sessionId));
    await slow.arrived(1);
    const s1 = (await compactor.compact(await store.getSession(sessionId))).summary;
    slow.release();
    await expect(planB).rejects.toMatchObject({ code: "compaction_conflict" });
    expect((await store.getSession(sessionId)).meta._last_summary_id).toBe(s1?.id);
    await expectOneValidActiveSummary(sessionId);
  });

  it("[R83] a branch deleted while its summary is written leaves no summary over deleted ids", async () => {
    const { compactor, dispatcher, gated, sessionId } = await conversation(4);
    const compaction = compactor.compact(await store.getSession(sessionId));
    await gated.arrived(1);
    await dispatcher.deleteBranch(sessionId, await headOf(store, sessionId));
    gated.release();
    await expect(compaction).rejects.toMatchObject({ code: "compaction_conflict" });
    expect(await summaries(store, sessionId)).toHaveLength(0);
    expect((await store.getSession(sessionId)).meta._last_summary_id).toBeUndefined();
  });

  it("[R84] a turn renders with the summary active when it was claimed, not when it started", async () => {
    const { compactor, gated, sessionId } = await conversation(4);
    gated.release();
    // "Another tab" compacts between this turn's start (its session read) and its claim.
    let summaryId: NodeId | undefined;
    const otherTab: TurnCompaction = {
      async beforeTurn(_session: SessionRecord) {
        summaryId = (await compactor.compact(await store.getSession(sessionId))).summary?.id;
        return false;
      },
      onOverflow: () => Promise.resolve(false),
    };
    const { dispatcher } = testDispatcher(store, {
      providers: offlineProviders(),
      compaction: otherTab,
    });
    const { reply } = await dispatcher.runTurn({ sessionId, mode: "send", content: "and now?" });
    expect(summaryId).toBeDefined();
    const root = (await store.getSession(sessionId)).rootId;
    expect(reply.reads.slice(0, 2)).toEqual([root, summaryId]);
    expect(reply.content).toMatch(/Summary: yes|summary stands in/i);
  });

  it("[R86] the store refuses to append under a summary or a notice, whoever asks", async () => {
    const { compactor, gated, sessionId } = await conversation(4);
    gated.release();
    const summary = (await compactor.compact(await store.getSession(sessionId))).summary;
    expect(summary).not.toBeNull();
    const before = (await store.nodes(sessionId)).length;
    await expect(
      store.appendNode({
        sessionId,
        predecessorId: summary!.id,
        kind: "user",
        content: "under a summary",
        status: "complete",
        tokenCount: 1 as never,
        advanceHead: true,
      }),
    ).rejects.toMatchObject({ code: "invalid_target" });
    expect((await store.nodes(sessionId)).length).toBe(before);
  });

  it("[R86] a send naming HEAD as its parent is refused when HEAD moved before its claim", async () => {
    const { dispatcher: plain, gated, sessionId } = await conversation(2);
    gated.release();
    const head = await headOf(store, sessionId);
    const [first] = await store
      .spine(sessionId, head)
      .then((s) => s.filter((n) => n.kind === "user"));
    // "Another tab" checks out an older turn between this send's start and its claim.
    const otherTab: TurnCompaction = {
      async beforeTurn() {
        await plain.checkout(sessionId, first!.id);
        return false;
      },
      onOverflow: () => Promise.resolve(false),
    };
    const { dispatcher } = testDispatcher(store, {
      providers: offlineProviders(),
      compaction: otherTab,
    });
    const before = (await store.nodes(sessionId)).length;
    await expect(
      dispatcher.runTurn({ sessionId, mode: "send", content: "at HEAD", parentId: head }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect((await store.nodes(sessionId)).length).toBe(before);
  });

  it.runIf(kind === "postgresql")(
    "[R90] leases run on the database's clock: a skewed instance neither seals a live stream nor admits a second turn",
    async () => {
      // Instance A's clock is ten minutes slow; B's is right. Both share the database.
      const slow = openTestSessionStore({
        database,
        now: () => new Date(Date.now() - 10 * 60_000),
      });
      const s = await store.createSession({ title: "skew" });
      const { node } = await slow.appendNode({
        sessionId: s.id,
        predecessorId: asNodeId(s.rootId ?? ""),
        kind: "assistant",
        content: "",
        status: "streaming",
        tokenCount: tokens(0),
        advanceHead: false,
        leaseMs: 30_000,
      });
      await slow.appendStreaming(s.id, node.id, "still going", 30_000);
      expect(await store.sealOrphans({ everything: false, sessionId: s.id })).toBe(0);
      expect((await store.node(s.id, node.id)).status).toBe("streaming");
      expect(await store.hasLiveStream(s.id)).toBe(true);
      await expect(
        store.openTurn({
          sessionId: s.id,
          predecessorId: asNodeId(s.rootId ?? ""),
          kind: "user",
          content: "a second turn",
          status: "complete",
          tokenCount: tokens(3),
          advanceHead: true,
          placeholder: { metadata: {}, leaseMs: 30_000 },
        }),
      ).rejects.toMatchObject({ code: "turn_in_progress" });
    },
  );
});
