import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SUMMARIZER_PROMPT_TOKENS } from "@/lib/compaction/summarize-in-chunks";

import { THRASH_TURNS } from "@/lib/engine/auto-compact-decision";
import { contextTokens, MESSAGE_OVERHEAD_TOKENS } from "@/lib/engine/context-tokens";
import { asNodeId, type NodeId, type SessionId } from "@/lib/engine/ids";
import { SUMMARY_PREFIX } from "@/lib/engine/render-message";
import type { LedgerNode, SessionSettings } from "@/lib/engine/types";
import type { SessionEvent } from "@/lib/events/session-event";
import { createExtractiveSummarizer } from "@/lib/llm/extractive-summarizer";
import { countTokens } from "@/lib/llm/tokens";
import type { SessionStore } from "@/lib/store/session-store";
import { behaviours, type OverflowFlavour } from "../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../support/recording-server";
import {
  bloatedSummarizer,
  chat,
  headOf,
  messagesOf,
  offlineProviders,
  recordingProviders,
  renderedTokens,
  spineIds,
  spySummarizer,
  summaries,
  userMessage,
  wireCompaction,
  withSummarizer,
} from "./support/compaction-helpers";
import { describeEachDatabase, useFreshStore } from "./support/databases";

/**
 * Issue 5 at pipeline level: the real Compactor, SessionStore and Dispatcher on SQLite and
 * PostgreSQL — manual `/compact`, auto-compaction before a turn, reactive compaction on a
 * provider overflow — with the guards and the invariants of compaction.md §1–§4.
 */
describeEachDatabase("compaction pipeline", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  async function newSession(settings: SessionSettings = {}): Promise<SessionId> {
    const s = await store.createSession({ title: "compaction" });
    await store.updateMeta(s.id, (m) => ({ ...m, settings }));
    return s.id;
  }

  async function rootOf(sessionId: SessionId): Promise<NodeId> {
    return asNodeId((await store.getSession(sessionId)).rootId ?? "");
  }

  /** [R74]: meta's text is the active summary's content, or both keys are absent. */
  async function expectMetaMatchesActive(sessionId: SessionId): Promise<LedgerNode | null> {
    const meta = (await store.getSession(sessionId)).meta;
    if (meta._last_summary_id === undefined) {
      expect(meta).not.toHaveProperty("_last_summary_text");
      return null;
    }
    const active = await store.node(sessionId, meta._last_summary_id);
    expect(active.kind).toBe("summary");
    expect(meta._last_summary_text).toBe(active.content);
    return active;
  }

  /** Keeps the last two turns of {@link chat}'s conversations (a turn costs ~150–200). */
  const KEEP = 400;

  const ofType = <T extends SessionEvent["type"]>(events: readonly SessionEvent[], type: T) =>
    events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);

  // ── [R72] reactive compaction over the OpenAI protocol ──────────────────────────────

  describe("reactive compaction against the recording server", () => {
    let server: RecordingServer;

    beforeAll(async () => {
      server = await startRecordingServer();
    });
    afterAll(() => server.close());
    beforeEach(() => server.reset());

    const SUMMARY_TEXT = "Goal: plan the release changes.\n\nNext step: answer the latest request.";

    /** A session with three echoed turns; the server's requests are forgotten afterwards. */
    async function seeded(settings: SessionSettings) {
      const wired = wireCompaction(store, { providers: recordingProviders(server) });
      const sessionId = await newSession(settings);
      const turns = await chat(wired.dispatcher, sessionId, 3);
      for (const t of turns) expect(t.reply.status).toBe("complete");
      server.reset();
      return { ...wired, sessionId, turns, events: wired.events(sessionId) };
    }

    it.each<OverflowFlavour>(["openai", "vllm", "ollama"])(
      "[R72] an overflow (%s) compacts once, then the turn is retried exactly once and completes",
      async (flavour) => {
        const { dispatcher, sessionId, events } = await seeded({ keepRecentTokens: 60 });
        const root = await rootOf(sessionId);
        const nodesBefore = (await store.nodes(sessionId)).length;
        server.enqueue(
          behaviours.overflow(flavour),
          behaviours.reply(SUMMARY_TEXT),
          behaviours.reply("The retried answer."),
        );

        const { user, reply } = await dispatcher.runTurn({
          sessionId,
          mode: "send",
          content: userMessage(3),
        });

        // Exactly: the overflowing call, the summariser call, the one retry.
        expect(server.chatRequests).toHaveLength(3);
        const [first, summaryCall, retried] = server.chatRequests;
        expect(messagesOf(first).some((m) => m.content.startsWith(SUMMARY_PREFIX))).toBe(false);
        expect(messagesOf(summaryCall)[0]?.content).toContain("rolling summary");
        expect(messagesOf(summaryCall)[1]?.content).toContain("There is no previous summary.");
        expect(messagesOf(summaryCall)[1]?.content).toContain(userMessage(0));

        // One summary node, head-neutral, standing in for the old turns.
        const written = await summaries(store, sessionId);
        expect(written).toHaveLength(1);
        const summary = written[0] as LedgerNode;
        expect(summary).toMatchObject({ predecessorId: root, content: SUMMARY_TEXT });
        expect(summary.metadata).toMatchObject({ trigger: "reactive" });
        expect(await store.nodes(sessionId)).toHaveLength(nodesBefore + 3); // user, S, reply
        expect(await headOf(store, sessionId)).toBe(reply.id);
        expect(await expectMetaMatchesActive(sessionId)).toMatchObject({ id: summary.id });

        // The reply is the retried call's answer, and its reads are the retried prompt.
        expect(reply).toMatchObject({ status: "complete", content: "The retried answer." });
        expect(reply.metadata).toMatchObject({ reactive_compaction: true });
        const retriedPrompt = await dispatcher.context(sessionId, user?.id);
        expect(reply.reads).toEqual(retriedPrompt.ids);
        expect(reply.reads).toEqual([root, summary.id, user?.id]);
        const sent = messagesOf(retried);
        expect(sent.map((m) => m.content)).toEqual(retriedPrompt.messages.map((m) => m.content));
        expect(sent[1]).toEqual({ role: "user", content: SUMMARY_PREFIX + SUMMARY_TEXT });

        expect(ofType(events, "compaction_finished")).toEqual([
          expect.objectContaining({ summary_id: summary.id }),
        ]);
      },
    );

    it("[R72] reactive compaction makes room even when the view already fits the kept window", async () => {
      // The registry's window (8,192 for an unknown model) is larger than the server's real
      // one: the conversation fits the default kept window, yet the server overflows.
      const { dispatcher, sessionId } = await seeded({});
      const root = await rootOf(sessionId);
      server.enqueue(
        behaviours.overflow("llamacpp"),
        behaviours.reply(SUMMARY_TEXT),
        behaviours.reply("Fits now."),
      );
      const { user, reply } = await dispatcher.runTurn({
        sessionId,
        mode: "send",
        content: userMessage(3),
      });
      expect(server.chatRequests).toHaveLength(3);
      expect(reply).toMatchObject({ status: "complete", content: "Fits now." });
      const summary = (await summaries(store, sessionId))[0] as LedgerNode;
      expect(reply.reads.slice(0, 2)).toEqual([root, summary.id]);
      expect(reply.reads.at(-1)).toBe(user?.id);
      expect(messagesOf(server.chatRequests[2]).length).toBeLessThan(
        messagesOf(server.chatRequests[0]).length,
      );
    });

    it("[R72] a second overflow seals the reply `error` with what to do, and nothing loops", async () => {
      const { dispatcher, sessionId } = await seeded({ keepRecentTokens: 60 });
      server.enqueue(
        behaviours.overflow("openai"),
        behaviours.reply(SUMMARY_TEXT),
        behaviours.overflow("openai"),
      );
      const { user, reply } = await dispatcher.runTurn({
        sessionId,
        mode: "send",
        content: userMessage(3),
      });
      // A fourth request would get the server's echo fallback and succeed: none is made.
      expect(server.chatRequests).toHaveLength(3);
      expect(reply.status).toBe("error");
      expect(reply.metadata.error?.code).toBe("provider_overflow");
      expect(reply.metadata.error?.message).toMatch(/compact/i);
      expect(reply.metadata.error?.message).toMatch(/branch|larger window/i);
      expect(reply.metadata).not.toHaveProperty("reactive_compaction");
      // The compaction itself succeeded once; the reply records the prompt it last sent.
      const written = await summaries(store, sessionId);
      expect(written).toHaveLength(1);
      expect(reply.reads).toEqual((await dispatcher.context(sessionId, user?.id)).ids);
      expect(reply.reads).toContain(written[0]?.id);
      expect(await headOf(store, sessionId)).toBe(reply.id);
    });

    it("[R58] a turn compacts at most once: an overflow after auto-compaction ends the turn", async () => {
      const { dispatcher, sessionId } = await seeded({});
      // Shrink the window under the conversation: the next turn is over 80% before it starts.
      const used = await renderedTokens(dispatcher, sessionId);
      await store.updateMeta(sessionId, (m) => ({
        ...m,
        settings: { contextWindow: used, keepRecentTokens: Math.floor(used / 3) },
      }));
      const before = (await summaries(store, sessionId)).length;
      server.enqueue(
        behaviours.reply(SUMMARY_TEXT), // the auto-compaction's summariser call
        behaviours.overflow("openai"), // the turn's call overflows anyway
        behaviours.reply(SUMMARY_TEXT), // would be a second (reactive) compaction
        behaviours.reply("ok"), // would be its retry
      );
      const { reply } = await dispatcher.runTurn({
        sessionId,
        mode: "send",
        content: userMessage(4),
      });
      expect(server.chatRequests).toHaveLength(2);
      expect(reply.status).toBe("error");
      expect(reply.metadata.error?.code).toBe("provider_overflow");
      expect(reply.metadata.error?.message).toMatch(/larger window/);
      const after = await summaries(store, sessionId);
      expect(after).toHaveLength(before + 1);
      expect(after.at(-1)?.metadata["trigger"]).toBe("auto");
    });

    it("[R72] a summariser failure during reactive compaction writes no summary and no retry", async () => {
      const { dispatcher, sessionId, events } = await seeded({ keepRecentTokens: 60 });
      const metaBefore = (await store.getSession(sessionId)).meta;
      server.enqueue(behaviours.overflow("openai"), behaviours.overflow("openai"));
      const { reply } = await dispatcher.runTurn({
        sessionId,
        mode: "send",
        content: userMessage(3),
      });
      expect(server.chatRequests).toHaveLength(2);
      expect(reply.status).toBe("error");
      expect(reply.metadata.error?.code).toBe("provider_overflow");
      // A provider error is never stored as a summary.
      expect(await summaries(store, sessionId)).toHaveLength(0);
      expect((await store.getSession(sessionId)).meta).toEqual(metaBefore);
      expect(ofType(events, "compaction_failed")).toEqual([
        expect.objectContaining({ code: "compaction_failed" }),
      ]);
      expect(ofType(events, "compaction_finished")).toHaveLength(0);
    });
  });

  // ── [R73] a long conversation on the offline model ──────────────────────────────────

  it("[R73] 60 turns in a 2,500-token window auto-compact, stay under 80% after every turn, and never thrash", async () => {
    const WINDOW = 2_500;
    const { dispatcher, events } = wireCompaction(store);
    const sessionId = await newSession({ contextWindow: WINDOW });
    const log = events(sessionId);
    const compactedAt: number[] = [];
    let finished = 0;

    for (let i = 0; i < 60; i++) {
      const { user, reply } = await dispatcher.runTurn({
        sessionId,
        mode: "send",
        content: userMessage(i),
      });
      expect(reply.status).toBe("complete");
      const nowFinished = ofType(log, "compaction_finished").length;
      if (nowFinished > finished) {
        expect(nowFinished).toBe(finished + 1); // at most one compaction per turn
        compactedAt.push(i);
        finished = nowFinished;
        const active = await expectMetaMatchesActive(sessionId);
        expect(reply.reads).toContain(active?.id);
      }
      // The prompt the reply read, priced by the engine and counted by the model itself,
      // and the context the next turn starts from: all under 80% of the window.
      expect((await renderedTokens(dispatcher, sessionId, user?.id)) * 100).toBeLessThan(
        80 * WINDOW,
      );
      expect((reply.metadata.usage?.promptTokens ?? Infinity) * 100).toBeLessThan(80 * WINDOW);
      expect((await renderedTokens(dispatcher, sessionId)) * 100).toBeLessThan(80 * WINDOW);
    }

    expect(compactedAt.length).toBeGreaterThanOrEqual(3);
    for (let k = 1; k < compactedAt.length; k++) {
      expect((compactedAt[k] ?? 0) - (compactedAt[k - 1] ?? 0)).toBeGreaterThan(THRASH_TURNS);
    }
    // No thrash notice, no failed attempt, and the notices that exist say nothing of either.
    expect(ofType(log, "compaction_failed")).toHaveLength(0);
    for (const notice of ofType(log, "notice")) {
      expect(notice.message).not.toMatch(/full again|Auto-compaction failed/);
    }
    // Every summary is an auto one that absorbed its predecessor: one rolling chain.
    const written = await summaries(store, sessionId);
    expect(written).toHaveLength(compactedAt.length);
    written.forEach((s, k) => {
      expect(s.metadata["trigger"]).toBe("auto");
      expect(s.metadata["previous_summary_id"]).toBe(k === 0 ? undefined : written[k - 1]?.id);
      const prev = written[k - 1]?.metadata.covers_ids ?? [];
      expect(s.metadata.covers_ids?.slice(0, prev.length)).toEqual(prev);
    });
  });

  // ── the shape of one compaction ─────────────────────────────────────────────────────

  it("[R52] a compacted head renders [ROOT, S, kept tail…], the tail starts at a user turn, HEAD stays, events tell the story", async () => {
    const { dispatcher, compactor, events } = wireCompaction(store);
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    await chat(dispatcher, sessionId, 5);
    const head = await headOf(store, sessionId);
    const root = await rootOf(sessionId);
    const raw = await spineIds(store, sessionId, head);
    const before = await dispatcher.context(sessionId);
    const nodesBefore = (await store.nodes(sessionId)).length;
    const log = events(sessionId);

    const result = await compactor.compact(await store.getSession(sessionId));
    const summary = result.summary as LedgerNode;
    expect(summary).not.toBeNull();

    // One node, hung off ROOT; HEAD untouched.
    expect(await store.nodes(sessionId)).toHaveLength(nodesBefore + 1);
    expect(summary).toMatchObject({ kind: "summary", predecessorId: root, status: "complete" });
    expect(await headOf(store, sessionId)).toBe(head);
    expect(ofType(log, "head_moved")).toHaveLength(0);

    // covers_ids is the spine segment right after ROOT; the rendering substitutes it.
    const covers = summary.metadata.covers_ids ?? [];
    expect(covers.length).toBeGreaterThan(0);
    expect(covers).toEqual(raw.slice(1, 1 + covers.length));
    const after = await dispatcher.context(sessionId);
    const kept = raw.slice(1 + covers.length);
    expect(after.ids).toEqual([root, summary.id, ...kept]);

    // A manual compaction keeps the latest exchange and nothing else ([R200]).
    const keptMessages = after.messages.slice(2);
    expect(keptMessages.map((m) => m.kind)).toEqual(["user", "assistant"]);
    expect(keptMessages.map((m) => m.id)).toEqual(before.ids.slice(-2));

    // The summary call read the covered slice; the summary is what the next prompt reads.
    expect(summary.reads).toEqual(before.ids.slice(1, 1 + covers.length));
    expect(after.messages[1]?.content).toBe(SUMMARY_PREFIX + summary.content);
    await expectMetaMatchesActive(sessionId);

    // compaction_started → node_appended(S) → compaction_finished, with exact token counts.
    const relevant = log.filter((e) => e.type !== "notice");
    expect(relevant.map((e) => e.type)).toEqual([
      "compaction_started",
      "node_appended",
      "compaction_finished",
    ]);
    expect(relevant[0]).toEqual({ type: "compaction_started", trigger: "manual", headId: head });
    expect(relevant[1]).toMatchObject({ node: { id: summary.id } });
    expect(relevant[2]).toEqual({
      type: "compaction_finished",
      trigger: "manual",
      summary_id: summary.id,
      counts: {
        covered: covers.length,
        newlyCovered: covers.length,
        kept: after.messages.length - 2,
      },
      tokensBefore: contextTokens(before.messages),
      tokensAfter: contextTokens(after.messages),
    });
    expect(result).toMatchObject({
      notice: null,
      coveredCount: covers.length,
      tokensBefore: contextTokens(before.messages),
      tokensAfter: contextTokens(after.messages),
    });
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);

    // The next turn reads the summary, never the turns it covers.
    const next = await dispatcher.runTurn({ sessionId, mode: "send", content: "And now?" });
    expect(next.reply.reads.slice(0, 2)).toEqual([root, summary.id]);
    for (const id of covers) expect(next.reply.reads).not.toContain(id);
  });

  it("[R45] [R200] automatic compaction keeps the longest tail that fits; manual only the latest exchange", async () => {
    const { dispatcher, compactor } = wireCompaction(store);
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    await chat(dispatcher, sessionId, 5);
    const before = await dispatcher.context(sessionId);
    const session = await store.getSession(sessionId);
    const auto = (await compactor.compact(session, session.headId, "auto")).summary as LedgerNode;
    expect(auto).not.toBeNull();
    const after = await dispatcher.context(sessionId);
    // The kept tail is the longest suffix that fits, snapped forward to a user turn.
    const keptMessages = after.messages.slice(2);
    expect(keptMessages[0]?.kind).toBe("user");
    expect(keptMessages.filter((m) => m.kind === "user").length).toBeGreaterThan(1);
    expect(contextTokens(keptMessages)).toBeLessThanOrEqual(KEEP);
    const previousUser = before.messages.findLastIndex(
      (m, i) => m.kind === "user" && i < before.messages.length - keptMessages.length,
    );
    expect(contextTokens(before.messages.slice(previousUser))).toBeGreaterThan(KEEP);

    // The same view compacted by hand: only the latest exchange stays verbatim.
    const manual = (await compactor.compact(await store.getSession(sessionId)))
      .summary as LedgerNode;
    expect(manual.metadata["previous_summary_id"]).toBe(auto.id);
    expect((await dispatcher.context(sessionId)).ids.slice(1)).toEqual([
      manual.id,
      ...before.ids.slice(-2),
    ]);
  });

  it("[R49] re-compaction absorbs the previous summary, extends covers_ids, and reads the summary's id", async () => {
    const spy = spySummarizer(createExtractiveSummarizer());
    const { dispatcher, compactor } = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), spy),
    });
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    await chat(dispatcher, sessionId, 5);
    const s1 = (await compactor.compact(await store.getSession(sessionId))).summary as LedgerNode;
    const covers1 = s1.metadata.covers_ids ?? [];
    await chat(dispatcher, sessionId, 3, 5);
    const head = await headOf(store, sessionId);
    const before = await dispatcher.context(sessionId);
    expect(before.ids[1]).toBe(s1.id);

    const s2 = (await compactor.compact(await store.getSession(sessionId))).summary as LedgerNode;
    expect(s2).not.toBeNull();
    expect(await headOf(store, sessionId)).toBe(head);

    // covers_ids: the previous segment extended, real turns only, contiguous after ROOT.
    const covers2 = s2.metadata.covers_ids ?? [];
    expect(covers2.slice(0, covers1.length)).toEqual(covers1);
    expect(covers2.length).toBeGreaterThan(covers1.length);
    expect(covers2).not.toContain(s1.id);
    expect(covers2).toEqual((await spineIds(store, sessionId, head)).slice(1, 1 + covers2.length));
    expect(s2.metadata["previous_summary_id"]).toBe(s1.id);
    expect(s2.predecessorId).toBe(await rootOf(sessionId));

    // The summariser chained S1's text and saw only the newly covered turns.
    const call = spy.calls[1];
    expect(spy.calls).toHaveLength(2);
    expect(call?.request.previousSummary).toBe(s1.content);
    const newlyCovered = covers2.slice(covers1.length);
    const newlyCoveredNodes = await store.nodesById(sessionId, newlyCovered);
    const byId = new Map(newlyCoveredNodes.map((n) => [n.id, n.content] as const));
    expect(call?.request.messages.map((m) => m.content)).toEqual(
      newlyCovered.map((id) => byId.get(id)),
    );
    expect(s2.content).toBe(call?.result);

    // [R42] reads: the covered slice of the rendering — S1's id, then the new turns.
    expect(s2.reads).toEqual([s1.id, ...newlyCovered]);
    expect(s2.reads).toEqual(before.ids.slice(1, 1 + s2.reads.length));
    for (const id of covers1) expect(s2.reads).not.toContain(id);

    await expectMetaMatchesActive(sessionId);
    const graph = await dispatcher.graph(sessionId);
    expect(graph.activeSummaryId).toBe(s2.id);
    expect(graph.nodes.find((r) => r.id === s1.id)).toMatchObject({ superseded_summary: true });
  });

  it("[R51] relics never elide: after re-compaction no rendering admits the old summary", async () => {
    const { dispatcher, compactor } = wireCompaction(store);
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    await chat(dispatcher, sessionId, 5);
    const s1 = (await compactor.compact(await store.getSession(sessionId))).summary as LedgerNode;
    const covers1 = s1.metadata.covers_ids ?? [];
    await chat(dispatcher, sessionId, 3, 5);
    const s2 = (await compactor.compact(await store.getSession(sessionId))).summary as LedgerNode;
    const covers2 = s2.metadata.covers_ids ?? [];
    const spine = await spineIds(store, sessionId, await headOf(store, sessionId));

    // A node past S1's segment but inside S2's: S2 cannot apply there, S1 (a relic) must
    // not — it renders raw. Had S1 been consulted, this would be [ROOT, S1, …].
    const between = covers2[covers1.length + 1] as NodeId;
    expect(covers1).not.toContain(between);
    expect((await dispatcher.context(sessionId, between)).ids).toEqual(
      await spineIds(store, sessionId, between),
    );
    // Nowhere on the branch does a rendering admit S1.
    for (const id of spine) {
      const ids = (await dispatcher.context(sessionId, id)).ids;
      expect(ids).not.toContain(s1.id);
      if (ids.includes(s2.id)) expect(ids.slice(0, 2)).toEqual([spine[0], s2.id]);
    }
  });

  it("[R50] a fork from inside the covered range renders raw, and compacting it chains nothing", async () => {
    const spy = spySummarizer(createExtractiveSummarizer());
    const { dispatcher, compactor, events } = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), spy),
    });
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    const main = await chat(dispatcher, sessionId, 5);
    const s1 = (await compactor.compact(await store.getSession(sessionId))).summary as LedgerNode;
    const covers1 = s1.metadata.covers_ids ?? [];
    const edited = main[1]?.user as LedgerNode;
    expect(covers1).toContain(edited.id);

    // Edit a covered turn: the fork's spine lacks part of S1's segment, so it renders raw.
    const fork = await dispatcher.runTurn({
      sessionId,
      mode: "edit",
      targetId: edited.id,
      content: "Turn 1, edited: what about the logging setup instead?",
    });
    expect(fork.reply.reads).not.toContain(s1.id);
    await chat(dispatcher, sessionId, 3, 20);
    const forkTip = await headOf(store, sessionId);
    const forkRaw = await spineIds(store, sessionId, forkTip);
    expect((await dispatcher.context(sessionId, forkTip)).ids).toEqual(forkRaw);

    // Compact the fork while HEAD is back on the main branch: HEAD stays there.
    const mainTip = main.at(-1)?.reply.id as NodeId;
    await dispatcher.checkout(sessionId, mainTip);
    const log = events(sessionId);
    const result = await compactor.compact(await store.getSession(sessionId), forkTip);
    const sf = result.summary as LedgerNode;
    expect(sf).not.toBeNull();
    expect(await headOf(store, sessionId)).toBe(mainTip);
    expect(ofType(log, "head_moved")).toHaveLength(0);
    expect(ofType(log, "compaction_started")).toEqual([
      { type: "compaction_started", trigger: "manual", headId: forkTip },
    ]);

    // The summariser got no previous summary and no summary message: only the fork's turns.
    const call = spy.calls[1];
    expect(spy.calls).toHaveLength(2);
    expect(call?.request).not.toHaveProperty("previousSummary");
    expect(call?.request.messages.some((m) => m.content.startsWith(SUMMARY_PREFIX))).toBe(false);
    expect(sf.metadata).not.toHaveProperty("previous_summary_id");
    expect(sf.reads).not.toContain(s1.id);
    const coversF = sf.metadata.covers_ids ?? [];
    expect(coversF).toEqual(forkRaw.slice(1, 1 + coversF.length));
    expect(coversF).not.toContain(edited.id);
    expect((await dispatcher.context(sessionId, forkTip)).ids.slice(0, 2)).toEqual([
      forkRaw[0],
      sf.id,
    ]);

    // Rolling-single: the fork's summary is now the active one; the main branch renders raw.
    expect(await expectMetaMatchesActive(sessionId)).toMatchObject({ id: sf.id });
    expect((await dispatcher.context(sessionId, mainTip)).ids).toEqual(
      await spineIds(store, sessionId, mainTip),
    );
  });

  // ── guards ──────────────────────────────────────────────────────────────────────────

  it("[R44] fewer than 4 history messages: a notice, nothing written", async () => {
    const { dispatcher, compactor, events } = wireCompaction(store);
    const sessionId = await newSession({ keepRecentTokens: 10 });
    await chat(dispatcher, sessionId, 1);
    const nodesBefore = await store.nodes(sessionId);
    const metaBefore = (await store.getSession(sessionId)).meta;
    const log = events(sessionId);

    const result = await compactor.compact(await store.getSession(sessionId));
    expect(result.summary).toBeNull();
    expect(result.notice).toMatch(/2 messages, at least 4/);
    expect(await store.nodes(sessionId)).toEqual(nodesBefore);
    expect((await store.getSession(sessionId)).meta).toEqual(metaBefore);
    expect(ofType(log, "notice")).toEqual([
      { type: "notice", code: "too_few_messages", message: result.notice, nodeId: null },
    ]);
    expect(ofType(log, "compaction_finished")).toHaveLength(0);
    expect(ofType(log, "node_appended")).toHaveLength(0);
  });

  it("[R55] a summary that does not shrink the context is rejected and nothing is written", async () => {
    // TEST DOUBLE: bloatedSummarizer returns far more text than the slice it replaces.
    const bloated = bloatedSummarizer();
    const { dispatcher, compactor, events } = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), bloated),
    });
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    await chat(dispatcher, sessionId, 5);
    const head = await headOf(store, sessionId);
    const nodesBefore = await store.nodes(sessionId);
    const metaBefore = (await store.getSession(sessionId)).meta;
    const log = events(sessionId);

    await expect(compactor.compact(await store.getSession(sessionId))).rejects.toMatchObject({
      code: "summary_not_smaller",
    });
    expect(bloated.calls).toHaveLength(1);
    expect(await store.nodes(sessionId)).toEqual(nodesBefore);
    expect((await store.getSession(sessionId)).meta).toEqual(metaBefore);
    expect(await headOf(store, sessionId)).toBe(head);
    expect(log.map((e) => e.type)).toEqual(["compaction_started", "compaction_failed"]);
    expect(ofType(log, "compaction_failed")[0]).toMatchObject({
      code: "summary_not_smaller",
      message: expect.stringMatching(/nothing was written/),
    });
  });

  it("[R56] a failed auto-compaction never blocks the turn and latches until the context grew by 5%", async () => {
    const WINDOW = 4_000;
    const RELEASE = Math.ceil(WINDOW * 0.05);
    // TEST DOUBLE: every summary it writes is rejected by the shrink guard.
    const bloated = bloatedSummarizer();
    const { dispatcher, events } = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), bloated),
    });
    const sessionId = await newSession({ contextWindow: WINDOW });
    const log = events(sessionId);
    // Long turns to near the 80% trigger, then short ones (~100 tokens each, < RELEASE).
    const long = (i: number) => `${userMessage(i)} ${"Here is more context. ".repeat(60)}`;
    for (let i = 0; bloated.calls.length === 0; i++) {
      expect(i).toBeLessThan(30);
      const near = (await renderedTokens(dispatcher, sessionId)) > 0.55 * WINDOW;
      const { reply } = await dispatcher.runTurn({
        sessionId,
        mode: "send",
        content: near ? "ok?" : long(i),
      });
      expect(reply.status).toBe("complete");
    }
    const latch = (await store.getSession(sessionId)).meta["_auto_compact_latch"] as {
      failedAtTokens: number;
    };
    expect(latch.failedAtTokens).toBeGreaterThan(0);
    expect(await summaries(store, sessionId)).toHaveLength(0);
    expect(ofType(log, "compaction_failed")).toEqual([
      expect.objectContaining({ code: "summary_not_smaller" }),
    ]);
    expect(ofType(log, "notice").map((n) => n.message)).toContainEqual(
      expect.stringMatching(/Auto-compaction failed .*the turn continues uncompacted/),
    );

    // While the context has grown by less than 5% of the window, no new attempt; then one.
    let held = 0;
    for (let i = 0; bloated.calls.length === 1; i++) {
      expect(i).toBeLessThan(6);
      const grown = (await renderedTokens(dispatcher, sessionId)) - latch.failedAtTokens;
      const { reply } = await dispatcher.runTurn({ sessionId, mode: "send", content: "ok?" });
      expect(reply.status).toBe("complete");
      if (grown < RELEASE) {
        expect(bloated.calls).toHaveLength(1);
        held++;
      } else {
        expect(bloated.calls).toHaveLength(2);
      }
    }
    expect(held).toBeGreaterThanOrEqual(1);
  });

  it("[R59] a covered slice larger than the summariser's window is summarised in chained chunks", async () => {
    const SUMMARIZER_WINDOW = 1_300;
    const spy = spySummarizer(createExtractiveSummarizer());
    const { dispatcher, compactor } = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), spy),
      serverWindow: SUMMARIZER_WINDOW,
    });
    const sessionId = await newSession({
      contextWindow: 2_000,
      keepRecentTokens: 100,
      autoCompact: false,
    });
    await chat(dispatcher, sessionId, 8);
    const before = await dispatcher.context(sessionId);

    const summary = (await compactor.compact(await store.getSession(sessionId)))
      .summary as LedgerNode;
    expect(summary).not.toBeNull();
    expect(spy.calls.length).toBeGreaterThanOrEqual(3);

    // In order, each chunk's summary carried into the next; the last one is the summary.
    spy.calls.forEach((call, k) => {
      expect(call.request.previousSummary).toBe(k === 0 ? undefined : spy.calls[k - 1]?.result);
      const budget = call.request.budget;
      const capacity = SUMMARIZER_WINDOW - SUMMARIZER_PROMPT_TOKENS - 2 * budget;
      const cost = call.request.messages.reduce(
        (sum, m) => sum + countTokens(m.content) + MESSAGE_OVERHEAD_TOKENS,
        0,
      );
      expect(cost).toBeLessThanOrEqual(capacity);
    });
    const covered = before.messages.slice(1, 1 + (summary.metadata.covers_ids ?? []).length);
    expect(spy.calls.flatMap((c) => c.request.messages.map((m) => m.content))).toEqual(
      covered.map((m) => m.content),
    );
    expect(summary.content).toBe(spy.calls.at(-1)?.result);
    // The final summary still carries the first chunk's requests (nothing was dropped).
    expect(summary.content).toContain("Turn 0:");
    await expectMetaMatchesActive(sessionId);
  });

  it("[R59] a session window far larger than the summariser's still compacts", async () => {
    // The offline summariser's window is the registry's 8,192; the session says 65,536.
    const spy = spySummarizer(createExtractiveSummarizer());
    const { dispatcher, compactor } = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), spy),
    });
    const sessionId = await newSession({ contextWindow: 65_536, keepRecentTokens: KEEP });
    await chat(dispatcher, sessionId, 5);
    const result = await compactor.compact(await store.getSession(sessionId));
    expect(result.summary).not.toBeNull();
    expect(spy.calls).toHaveLength(1);
    const budget = spy.calls[0]?.request.budget ?? Infinity;
    expect(8_192 - SUMMARIZER_PROMPT_TOKENS - 2 * budget).toBeGreaterThan(0);
    expect(countTokens(result.summary?.content ?? "")).toBeLessThanOrEqual(budget);
  });

  // ── [R74] meta follows the active summary ───────────────────────────────────────────

  it("[R74] _last_summary_text equals the active summary's content after every compaction and branch delete", async () => {
    const { dispatcher, compactor } = wireCompaction(store);
    const sessionId = await newSession({ keepRecentTokens: KEEP });
    const main = await chat(dispatcher, sessionId, 5);
    const compact = async () => {
      const r = await compactor.compact(await store.getSession(sessionId));
      expect(r.summary).not.toBeNull();
      expect(await expectMetaMatchesActive(sessionId)).toMatchObject({ id: r.summary?.id });
      return r.summary as LedgerNode;
    };
    const turn = (i: number) => main[i] as { user: LedgerNode; reply: LedgerNode };
    const s1 = await compact();
    expect(s1.metadata.covers_ids).toContain(turn(1).user.id);

    // Delete a fork that holds no covered node: the summary stays active, its text too.
    const fork = await dispatcher.runTurn({
      sessionId,
      mode: "edit",
      targetId: turn(1).user.id,
      content: "Turn 1, edited: the other plan?",
    });
    await dispatcher.deleteBranch(sessionId, fork.reply.id);
    expect(await expectMetaMatchesActive(sessionId)).toMatchObject({ id: s1.id });
    expect(await headOf(store, sessionId)).toBe(turn(0).reply.id);

    await dispatcher.checkout(sessionId, turn(4).reply.id);
    const more = await chat(dispatcher, sessionId, 3, 5);
    const mainTip = more.at(-1)?.reply.id as NodeId;
    const s2 = await compact();
    expect(s2.metadata.covers_ids).toContain(turn(2).user.id);

    // Fork again from inside the covered range, then delete the main branch, which holds
    // covered nodes: S2 is retired, both meta keys go, the relics stay on disk.
    const other = await dispatcher.runTurn({
      sessionId,
      mode: "edit",
      targetId: turn(2).user.id,
      content: "Turn 2, edited: a different direction.",
    });
    await dispatcher.deleteBranch(sessionId, mainTip);
    const meta = (await store.getSession(sessionId)).meta;
    expect(meta).not.toHaveProperty("_last_summary_id");
    expect(meta).not.toHaveProperty("_last_summary_text");
    const left = (await store.nodes(sessionId)).map((n) => n.id);
    expect(left).toEqual(expect.arrayContaining([s1.id, s2.id, turn(1).reply.id]));
    expect(left).not.toContain(turn(2).user.id);
    expect(left).not.toContain(mainTip);
    expect(await headOf(store, sessionId)).toBe(other.reply.id);
    expect((await dispatcher.graph(sessionId)).activeSummaryId).toBeNull();
    expect((await dispatcher.context(sessionId)).ids).toEqual(
      await spineIds(store, sessionId, other.reply.id),
    );

    // Compacting the surviving fork starts a fresh rolling summary; meta follows it.
    await chat(dispatcher, sessionId, 2, 40);
    const s3 = await compact();
    expect(s3.metadata).not.toHaveProperty("previous_summary_id");
  });
});
