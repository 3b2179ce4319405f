import { expect, it } from "vitest";

import type { Database } from "@/lib/db/client";
import { tokens, type NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import { newNodeId } from "@/lib/ids";
import { planImport, toLedgerFile, type ParsedLedgerFile } from "@/lib/portability/ledger-file";
import type { SessionStore } from "@/lib/store/session-store";
import { chat, wireCompaction } from "./support/compaction-helpers";
import { countingStore } from "./support/counting-store";
import { appendPairs } from "./support/ledger";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { testDispatcher } from "./support/dispatcher";
import { DEFAULT_PDF_LIMITS } from "@/lib/files/limits";
import { createPdfReader } from "@/lib/files/pdf-reader";

async function storedReads(database: Database, id: NodeId): Promise<string> {
  const row = await database.db.node.findFirst({ where: { id }, select: { reads: true } });
  return row?.reads ?? "";
}

async function run(turn: AsyncGenerator<unknown, { reply: LedgerNode }>): Promise<LedgerNode> {
  let step = await turn.next();
  while (!step.done) step = await turn.next();
  return step.value.reply;
}

describeEachDatabase("[R134] reads stored as a reference to their rendering", (kind) => {
  let store: SessionStore;
  let database: Database;
  useFreshStore(kind, (env) => ({ store, database } = env));

  it("[R134] send, retry and edit store a reference; every full read answers the list read", async () => {
    const { dispatcher } = testDispatcher(store);
    const s = await store.createSession({});
    await appendPairs(store, s.id, 3);
    const sent = await run(dispatcher.turn({ sessionId: s.id, mode: "send", content: "hello" }));
    const retried = await run(
      dispatcher.turn({ sessionId: s.id, mode: "retry", targetId: sent.id }),
    );
    const edited = await run(
      dispatcher.turn({
        sessionId: s.id,
        mode: "edit",
        content: "hello again",
        targetId: sent.predecessorId!,
      }),
    );
    const replies = [sent, retried, edited];
    for (const reply of replies) {
      const expected = (await dispatcher.context(s.id, reply.predecessorId!)).ids;
      expect(expected.length).toBeGreaterThan(6);
      expect(reply.reads).toEqual(expected);
      expect(JSON.parse(await storedReads(database, reply.id))).toEqual({
        head: reply.predecessorId,
        summary: null,
      });
      expect((await store.node(s.id, reply.id)).reads).toEqual(expected);
      expect((await store.nodesById(s.id, [reply.id]))[0]?.reads).toEqual(expected);
    }
    // Whole-ledger, paged and spine reads expand too (in one batch per read).
    const whole = new Map((await store.nodes(s.id)).map((n) => [n.id, n.reads]));
    const page = await store.nodesAfter(s.id, { afterSeq: 0, limit: 100, reads: true });
    const paged = new Map(page.nodes.map((n) => [n.id, n.reads]));
    const byIds = new Map(
      (
        await store.nodesById(
          s.id,
          replies.map((r) => r.id),
        )
      ).map((n) => [n.id, n.reads]),
    );
    const spine = await store.spine(s.id, edited.id);
    for (const reply of replies) {
      expect(whole.get(reply.id)).toEqual(reply.reads);
      expect(paged.get(reply.id)).toEqual(reply.reads);
      expect(byIds.get(reply.id)).toEqual(reply.reads);
    }
    expect(spine.at(-1)?.reads).toEqual(edited.reads);
    // One recursive query expands a page's references together, not one per node.
    const db = database.db as unknown as { $queryRaw: (...a: unknown[]) => unknown };
    const queryRaw = db.$queryRaw;
    let queries = 0;
    db.$queryRaw = (...a: unknown[]) => {
      queries++;
      return queryRaw.apply(database.db, a);
    };
    try {
      await store.nodesAfter(s.id, { afterSeq: 0, limit: 100, reads: true });
      await store.nodesById(
        s.id,
        replies.map((r) => r.id),
      );
    } finally {
      db.$queryRaw = queryRaw;
    }
    expect(queries).toBe(2);
    // Lean shapes never expand.
    const lean = await store.nodesAfter(s.id, { afterSeq: 0, limit: 100, reads: false });
    for (const n of lean.nodes) expect(n.reads).toEqual([]);
    expect((await store.nodesById(s.id, [sent.id], { reads: false }))[0]?.reads).toEqual([]);
  });

  it("[R134] after a compaction the reference names the summary and expands with it in place", async () => {
    const { dispatcher, compactor } = wireCompaction(store);
    const s = await store.createSession({ title: "compaction" });
    await store.updateMeta(s.id, (m) => ({ ...m, settings: { keepRecentTokens: 400 } }));
    await chat(dispatcher, s.id, 5);
    const { summary } = await compactor.compact(await store.getSession(s.id));
    expect(summary).not.toBeNull();
    const next = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "And now?" });
    const expected = (await dispatcher.context(s.id, next.reply.predecessorId!)).ids;
    expect(expected[1]).toBe(summary?.id);
    expect(next.reply.reads).toEqual(expected);
    expect(JSON.parse(await storedReads(database, next.reply.id))).toEqual({
      head: next.reply.predecessorId,
      summary: summary?.id,
    });
    const page = await store.nodesAfter(s.id, { afterSeq: 0, limit: 1000, reads: true });
    expect(page.nodes.find((n) => n.id === next.reply.id)?.reads).toEqual(expected);
    // The summary's own reads (what the summariser read) stay an explicit list.
    expect((await storedReads(database, summary!.id)).startsWith("[")).toBe(true);
  });

  it("[R134] a spawned task's reply reads what its branch sent; the tool result stays explicit", async () => {
    const { dispatcher } = testDispatcher(store);
    const s = await store.createSession({});
    await run(dispatcher.turn({ sessionId: s.id, mode: "send", content: "Plan it." }));
    const { caller, branchRootId, result } = await dispatcher.spawn({
      sessionId: s.id,
      prompt: "List the steps",
    });
    const reply = (await store.nodes(s.id)).find((n) => n.predecessorId === branchRootId);
    expect(reply).toBeDefined();
    // The caller's unanswered tool call is left off what the sub-agent sent (and read).
    expect(reply?.reads).not.toContain(caller.id);
    expect(reply?.reads.at(-1)).toBe(branchRootId);
    expect((await store.node(s.id, reply!.id)).reads).toEqual(reply?.reads);
    expect(result.reads).toEqual([reply?.id]);
    expect(await storedReads(database, result.id)).toBe(JSON.stringify([reply?.id]));
  });

  it("[R134] explicit arrays (rows written before) are read as before", async () => {
    const s = await store.createSession({});
    const { node } = await store.appendNode({
      sessionId: s.id,
      predecessorId: "head",
      kind: "assistant",
      content: "old",
      status: "complete",
      tokenCount: tokens(1),
      reads: [s.rootId!],
      advanceHead: true,
    });
    expect(await storedReads(database, node.id)).toBe(JSON.stringify([s.rootId]));
    expect((await store.node(s.id, node.id)).reads).toEqual([s.rootId]);
  });

  it("[R134] export then import keeps every reply's reads", async () => {
    const { dispatcher } = testDispatcher(store);
    const s = await store.createSession({});
    await run(dispatcher.turn({ sessionId: s.id, mode: "send", content: "one" }));
    const two = await run(dispatcher.turn({ sessionId: s.id, mode: "send", content: "two" }));
    await run(dispatcher.turn({ sessionId: s.id, mode: "retry", targetId: two.id }));
    const original = await store.nodes(s.id);
    const file = JSON.parse(
      JSON.stringify(toLedgerFile(await store.getSession(s.id), original, new Date())),
    ) as ParsedLedgerFile;
    const plan = await planImport(file, () => newNodeId(), {
      maxNodes: 1000,
      count: (t) => t.length,
      pdf: { read: createPdfReader(DEFAULT_PDF_LIMITS), maxTextChars: 1_000_000 },
    });
    const imported = await store.nodes((await store.importSession(plan)).id);
    expect(imported.length).toBe(original.length);
    const renamed = new Map(original.map((n, i) => [n.id, imported[i]?.id]));
    original.forEach((n, i) => {
      expect(imported[i]?.reads).toEqual(n.reads.map((r) => renamed.get(r)));
    });
    expect(original.some((n) => n.reads.length > 2)).toBe(true);
  });
});

describeEachDatabase("[R135] a reply's reads cost O(1) bytes to store", (kind) => {
  let store: SessionStore;
  let database: Database;
  useFreshStore(kind, (env) => ({ store, database } = env));

  it("[R135] a reply on a 200-node spine stores as many bytes of reads as one on a 2-node spine", async () => {
    const { dispatcher } = testDispatcher(store);
    const short = await store.createSession({});
    const long = await store.createSession({});
    await appendPairs(store, long.id, 100);
    const a = await run(dispatcher.turn({ sessionId: short.id, mode: "send", content: "x" }));
    const b = await run(dispatcher.turn({ sessionId: long.id, mode: "send", content: "x" }));
    expect(b.reads.length).toBe(202);
    const bytesA = (await storedReads(database, a.id)).length;
    const bytesB = (await storedReads(database, b.id)).length;
    expect(bytesB).toBe(bytesA);
    expect(bytesB).toBeLessThan(120);
  });
});

describeEachDatabase("[R139] a sealed reply is answered without reading its reads back", (kind) => {
  let database: Database;
  let plain: SessionStore;
  useFreshStore(kind, (env) => ({ database, store: plain } = env));

  it("[R139] no spine walk after the seal; the reads answered are those stored", async () => {
    const { store, counts } = countingStore(database);
    const { dispatcher } = testDispatcher(store);
    const s = await store.createSession({});
    await appendPairs(store, s.id, 20);
    // A first turn warms the final-node cache: the second walks no spine before its prompt.
    await run(dispatcher.turn({ sessionId: s.id, mode: "send", content: "first" }));
    counts.rawText.length = 0;
    const reply = await run(dispatcher.turn({ sessionId: s.id, mode: "send", content: "again" }));
    expect(await storedReads(database, reply.id)).toMatch(/^\{"head":/);
    expect(counts.rawText.filter((sql) => /RECURSIVE/i.test(sql))).toEqual([]);
    expect(reply.reads).toHaveLength(44);
    expect(reply.reads).toEqual((await plain.node(s.id, reply.id)).reads);
  });
});
