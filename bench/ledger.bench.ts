/**
 * [R75] Ledger benchmarks, each against a baseline measured in the same run:
 *
 *  1. renderContext cost follows the spine, not the DAG: the same 200-node spine inside a
 *     1,000-node and a 100,000-node session, through the engine alone (in-memory lookup)
 *     and through the SessionStore (one recursive query on SQLite). Goal: ratio ≤ 1.5.
 *  2. append + render through Prisma (SessionStore) against the raw better-sqlite3 driver
 *     executing the same SQL. Goal: ≤ 3×.
 *  3. renderContext of a spine from the final-node cache's copies (what every warm turn
 *     renders, [R136]) against the same spine as read. Goal: ≤ 1.2×.
 *
 *   npx tsx bench/ledger.bench.ts
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { interleaved, migrated } from "./measure";
import { openDatabase } from "../lib/db/client";
import { activeSummaries } from "../lib/engine/active-summaries";
import { asNodeId, asSessionId, tokens, type NodeId } from "../lib/engine/ids";
import { renderContext } from "../lib/engine/render-context";
import { spineOf } from "../lib/engine/spine-of";
import type { LedgerNode } from "../lib/engine/types";
import { newNodeId, newSessionId } from "../lib/ids";
import { openSessionStore } from "../lib/store/session-store";
import { LocalBus } from "../lib/events/local-bus";
import { FinalNodes } from "../lib/store/final-nodes";

const SPINE = 200;

/** The benchmark's node `i` of session S, under `pred`. */
const make = (i: number, pred: NodeId | null): LedgerNode => ({
  id: asNodeId(`N${String(i).padStart(7, "0")}`),
  sessionId: asSessionId("S"),
  predecessorId: pred,
  seq: i,
  kind: i === 0 ? "root" : i % 2 === 1 ? "user" : "assistant",
  content: `message ${i} `.repeat(8),
  status: "complete",
  callerId: null,
  metadata: {},
  reads: [],
  tokenCount: tokens(24),
  createdAt: "2026-12-01T00:00:00.000Z",
});

/** A session whose HEAD spine has SPINE nodes and whose other nodes are side branches. */
function ledger(total: number): { nodes: LedgerNode[]; head: NodeId } {
  const nodes: LedgerNode[] = [];
  for (let i = 0; i < SPINE; i++) nodes.push(make(i, i === 0 ? null : (nodes[i - 1]?.id ?? null)));
  // Dead forks hang off spine nodes, as retries and edits leave them.
  for (let i = SPINE; i < total; i++) {
    const forkFrom = nodes[(i * 7919) % SPINE]?.id ?? null;
    nodes.push(make(i, i % 5 === 0 ? forkFrom : (nodes[i - 1]?.id ?? forkFrom)));
  }
  return { nodes, head: nodes[SPINE - 1]?.id ?? asNodeId("N0000000") };
}

/** The spine of P3's long lane. */
const LONG_SPINE = 2_001;

/** A rendering of a LONG_SPINE spine: from the final-node cache's copies, or as read. */
function cacheRender(fromCache: boolean): () => void {
  const read: LedgerNode[] = [];
  for (let i = 0; i < LONG_SPINE; i++) read.push(make(i, read.at(-1)?.id ?? null));
  const head = read.at(-1)?.id ?? asNodeId("N0000000");
  const cache = new FinalNodes();
  const sessionId = asSessionId("S");
  cache.remember(sessionId, read, cache.epoch);
  const cached = cache.walk(sessionId, head).above.reverse();
  if (cached.length !== read.length) throw new Error("the cache lost part of the spine");
  const spine = fromCache ? cached : read;
  return () => {
    renderContext({ spine, activeSummaries: [] });
  };
}

function engineRender(total: number): () => void {
  const { nodes, head } = ledger(total);
  const byId = new Map(nodes.map((n) => [n.id, n] as const));
  const get = (id: NodeId) => byId.get(id);
  return () => {
    const spine = spineOf(head, get);
    renderContext({ spine, activeSummaries: activeSummaries({}, get) });
  };
}

/** Loads a generated ledger into SQLite straight through the driver (setup, not measured). */
function load(file: string, nodes: LedgerNode[], head: NodeId): void {
  const db = new Database(file);
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO "Session" (id, title, headId, rootId, meta, nextSeq, createdAt, updatedAt) VALUES ('S', 'bench', ?, 'N0000000', '{}', ?, ?, ?)`,
  ).run(head, nodes.length, now, now);
  const insert = db.prepare(
    `INSERT INTO "Node" (id, sessionId, predecessorId, seq, kind, content, status, callerId, metadata, reads, tokenCount, createdAt) VALUES (?, 'S', ?, ?, ?, ?, 'complete', NULL, '{}', '[]', ?, ?)`,
  );
  db.transaction(() => {
    for (const n of nodes)
      insert.run(n.id, n.predecessorId, n.seq, n.kind, n.content, n.tokenCount, now);
  })();
  db.close();
}

function storeOn(database: Awaited<ReturnType<typeof openDatabase>>) {
  return openSessionStore({
    database,
    // Nobody listens here: the bus only fans the store's announcements out.
    events: new LocalBus(),
    now: () => new Date(),
    newNodeId: () => newNodeId(),
    newSessionId: () => newSessionId(),
  });
}

async function storeRender(dir: string, total: number) {
  const url = await migrated(dir, `render-${total}.db`);
  const { nodes, head } = ledger(total);
  load(url.slice(5), nodes, head);
  const database = await openDatabase(url);
  const store = storeOn(database);
  const session = await store.getSession(asSessionId("S"));
  return {
    run: async () => {
      const spine = await store.spine(session.id, head);
      renderContext({ spine, activeSummaries: [] });
    },
    close: () => database.close(),
  };
}

const SPINE_SQL = `WITH RECURSIVE spine(id, pred, depth) AS (
  SELECT "id", "predecessorId", 0 FROM "Node" WHERE "id" = ? AND "sessionId" = ?
  UNION ALL
  SELECT n."id", n."predecessorId", s.depth + 1 FROM "Node" n JOIN spine s ON n."id" = s.pred WHERE n."sessionId" = ?)
SELECT n.* FROM spine s JOIN "Node" n ON n."id" = s.id ORDER BY s.depth DESC`;

/** append (lock, check predecessor, insert, advance HEAD) + render of the new HEAD. */
async function appendAndRender(dir: string) {
  const urlA = await migrated(dir, "append-prisma.db");
  const urlB = await migrated(dir, "append-raw.db");
  const database = await openDatabase(urlA);
  const store = storeOn(database);
  const s = await store.createSession({ title: "bench" });
  const prisma = async () => {
    const { node } = await store.appendNode({
      sessionId: s.id,
      predecessorId: "head",
      kind: "user",
      content: "a benchmark message of ordinary length",
      status: "complete",
      tokenCount: tokens(8),
      advanceHead: true,
    });
    renderContext({ spine: await store.spine(s.id, node.id), activeSummaries: [] });
  };

  const raw = new Database(urlB.slice(5));
  raw.pragma("journal_mode = WAL");
  raw.pragma("busy_timeout = 5000");
  const now = () => new Date().toISOString();
  raw
    .prepare(
      `INSERT INTO "Session" (id, title, headId, rootId, meta, nextSeq, createdAt, updatedAt) VALUES ('R', 'raw', 'R0', 'R0', '{}', 1, ?, ?)`,
    )
    .run(now(), now());
  raw
    .prepare(
      `INSERT INTO "Node" (id, sessionId, predecessorId, seq, kind, content, status, metadata, reads, tokenCount, createdAt) VALUES ('R0', 'R', NULL, 0, 'root', 'sys', 'complete', '{}', '[]', 1, ?)`,
    )
    .run(now());
  const lock = raw.prepare(
    `UPDATE "Session" SET "nextSeq" = "nextSeq" + 1, "updatedAt" = ? WHERE id = ? RETURNING *`,
  );
  const pred = raw.prepare(`SELECT id, kind FROM "Node" WHERE id = ? AND "sessionId" = ? LIMIT 1`);
  const insert = raw.prepare(
    `INSERT INTO "Node" (id, sessionId, predecessorId, seq, kind, content, status, callerId, metadata, reads, tokenCount, leaseUntil, createdAt) VALUES (?, 'R', ?, ?, 'user', ?, 'complete', NULL, '{}', '[]', 8, NULL, ?) RETURNING *`,
  );
  const head = raw.prepare(`UPDATE "Session" SET "headId" = ? WHERE id = ?`);
  const spine = raw.prepare(SPINE_SQL);
  const append = raw.transaction(() => {
    const session = lock.get(now(), "R") as { headId: string; nextSeq: number };
    pred.get(session.headId, "R");
    const id = newNodeId();
    insert.get(
      id,
      session.headId,
      session.nextSeq - 1,
      "a benchmark message of ordinary length",
      now(),
    );
    head.run(id, "R");
    return id;
  });
  const rawRun = () => {
    const id = append.immediate();
    const rows = spine.all(id, "R", "R") as { content: string }[];
    rows.map((r) => r.content);
  };
  return {
    prisma,
    raw: rawRun,
    close: async () => {
      raw.close();
      await database.close();
    },
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "spindle-bench-"));
try {
  const f = (us: number) => `${us.toFixed(1)} µs`;
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(2)}`,
  );

  const engine = await interleaved(engineRender(100_000), engineRender(1_000), 2_000);
  console.log(
    `renderContext, spine ${SPINE}, engine only:  100k nodes ${f(engine.a)}  1k nodes ${f(engine.b)}  ratio ${engine.ratio.toFixed(2)}`,
  );

  const big = await storeRender(dir, 100_000);
  const small = await storeRender(dir, 1_000);
  const store = await interleaved(big.run, small.run, 200);
  console.log(
    `renderContext, spine ${SPINE}, SQLite store: 100k nodes ${f(store.a)}  1k nodes ${f(store.b)}  ratio ${store.ratio.toFixed(2)}`,
  );
  await big.close();
  await small.close();

  // Both sides append to a growing chain, so each round re-renders a longer spine.
  const ar = await appendAndRender(dir);
  const append = await interleaved(ar.prisma, ar.raw, 60);
  console.log(
    `append + render: SessionStore (Prisma) ${f(append.a)}  raw better-sqlite3 ${f(append.b)}  ratio ${append.ratio.toFixed(2)}`,
  );
  await ar.close();

  const cached = await interleaved(cacheRender(true), cacheRender(false), 500);
  console.log(
    `renderContext, spine ${LONG_SPINE}: from the final-node cache ${f(cached.a)}  as read ${f(cached.b)}  ratio ${cached.ratio.toFixed(2)} (goal ≤ 1.2)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
