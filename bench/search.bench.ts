/**
 * [R101] Search cost follows the caller's text, not every account's: the same caller (one
 * session, 2,000 indexed nodes, 40 of them with the searched word) on two SQLite servers
 * whose other accounts hold 60,000 indexed nodes — on one server every one of them holds
 * the word too, on the other none does. The ratio says how much other accounts' matching
 * text still costs the caller (FTS5 walks the word's whole doclist to intersect it with the
 * owner key, but ranks and joins only the caller's rows).
 *
 * For contrast, the same run times the query without the owner key in MATCH (the owner
 * compared in the join only, as the first version did) on the same two files.
 *
 *   npx tsx bench/search.bench.ts
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/client";
import { asOwnerId } from "../lib/engine/ids";
import { SearchStore } from "../lib/store/search-store";
import { interleaved, migrated } from "./measure";

const MINE = 2_000;
const MINE_WITH_WORD = 40;
const OTHERS = 60_000;
const SESSIONS_OF_OTHERS = 60;
const WORD = "kestrel";
const FILLER =
  "the ferry leaves at dawn and the market opens late so plan the morning around the tide";

/** Loads sessions straight through the driver (setup, not measured); triggers index them. */
function load(file: string, othersHaveWord: boolean): void {
  const db = new Database(file);
  const now = new Date().toISOString();
  const session = db.prepare(
    `INSERT INTO "Session" (id, title, ownerId, meta, nextSeq, createdAt, updatedAt) VALUES (?, ?, ?, '{}', 0, ?, ?)`,
  );
  const node = db.prepare(
    `INSERT INTO "Node" (id, sessionId, predecessorId, seq, kind, content, status, metadata, reads, tokenCount, createdAt) VALUES (?, ?, ?, ?, ?, ?, 'complete', '{}', '[]', 20, ?)`,
  );
  const fill = (sessionId: string, count: number, withWord: (i: number) => boolean) => {
    let pred: string | null = null;
    for (let i = 0; i < count; i++) {
      const id = `${sessionId}-${i}`;
      const text = `${FILLER} ${i}${withWord(i) ? ` a ${WORD} over the ridge` : ""}`;
      node.run(id, sessionId, pred, i, i % 2 === 0 ? "user" : "assistant", text, now);
      pred = id;
    }
  };
  db.transaction(() => {
    session.run("mine", "My notes", "me", now, now);
    fill("mine", MINE, (i) => i % (MINE / MINE_WITH_WORD) === 0);
    const per = OTHERS / SESSIONS_OF_OTHERS;
    for (let s = 0; s < SESSIONS_OF_OTHERS; s++) {
      const id = `other${s}`;
      session.run(id, "Other notes", `someone-${s % 7}`, now, now);
      fill(id, per, () => othersHaveWord);
    }
  })();
  db.close();
}

/** The first version's query: MATCH on the words only, the owner compared in the join. */
function joinFiltered(file: string): () => unknown {
  const db = new Database(file, { readonly: true });
  const query = db.prepare(
    `SELECT n.id FROM "node_fts" JOIN "Node" n ON n.id = "node_fts".node_id
       JOIN "Session" s ON s.id = n.sessionId
      WHERE "node_fts" MATCH ? AND s.ownerId = ?
      ORDER BY bm25("node_fts"), n.createdAt DESC, n.id DESC LIMIT 20`,
  );
  return () => query.all(`{content} : ("${WORD}")`, "me");
}

const dir = mkdtempSync(path.join(os.tmpdir(), "spindle-bench-search-"));
try {
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  const crowdedUrl = await migrated(dir, "crowded.db");
  const quietUrl = await migrated(dir, "quiet.db");
  load(crowdedUrl.slice(5), true);
  load(quietUrl.slice(5), false);

  const crowded = await openDatabase(crowdedUrl);
  const quiet = await openDatabase(quietUrl);
  const me = asOwnerId("me");
  const searchOn = (store: SearchStore) => async () => {
    const page = await store.search(me, WORD, { limit: 20 });
    if (page.results.length !== 20) throw new Error("the bench data is not what it claims");
  };
  const f = (us: number) => `${(us / 1000).toFixed(2)} ms`;

  const owned = await interleaved(
    searchOn(new SearchStore(crowded)),
    searchOn(new SearchStore(quiet)),
    30,
  );
  console.log(
    `search "${WORD}", owner key in MATCH: others' ${OTHERS.toLocaleString("en")} nodes match ${f(owned.a)}  none match ${f(owned.b)}  ratio ${owned.ratio.toFixed(2)}`,
  );
  const joined = await interleaved(
    joinFiltered(crowdedUrl.slice(5)),
    joinFiltered(quietUrl.slice(5)),
    30,
  );
  console.log(
    `search "${WORD}", owner in the join only: others' nodes match ${f(joined.a)}  none match ${f(joined.b)}  ratio ${joined.ratio.toFixed(2)}`,
  );
  await crowded.close();
  await quiet.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
