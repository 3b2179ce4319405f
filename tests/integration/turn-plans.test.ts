import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { SessionStore } from "@/lib/store/session-store";
import { useFreshStore } from "./support/databases";
import { offlineProviders, wireCompaction } from "./support/compaction-helpers";
import { appendPairs } from "./support/ledger";

/**
 * Every statement a warm turn runs on SQLite, with the connection it ran on: better-sqlite3
 * is the driver under Prisma's adapter, so its `prepare` sees each statement's text.
 */
const seen = new Map<string, BetterSqlite3.Database>();
let recording = false;
const proto = BetterSqlite3.prototype as unknown as {
  prepare: (this: BetterSqlite3.Database, sql: string) => BetterSqlite3.Statement;
};
const prepare = proto.prepare;
proto.prepare = function (this: BetterSqlite3.Database, sql: string) {
  if (recording) seen.set(sql, this);
  return prepare.call(this, sql);
};
afterAll(() => {
  proto.prepare = prepare;
});

/** SQLite's plan for `sql`, each parameter given a placeholder value. */
function planOf(db: BetterSqlite3.Database, sql: string): string[] {
  const stmt = prepare.call(db, `EXPLAIN QUERY PLAN ${sql}`);
  const values = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => "x");
  return (stmt.all(...values) as { detail: string }[]).map((r) => r.detail);
}

/**
 * A step that reads a session's nodes in turn: a scan, or a search whose only constraint is
 * the session (through the (sessionId, seq) or (sessionId, predecessorId) index).
 */
const readsTheSession = (step: string) =>
  /^SCAN (main\.)?(Node|n|c)\b/.test(step) ||
  /USING (COVERING )?INDEX \w+ \(sessionId=\?\)( LEFT-JOIN)?$/.test(step);

describe("[R118] a turn's statements on SQLite", () => {
  let store: SessionStore;
  useFreshStore("sqlite", (env) => ({ store } = env));

  it("[R118] no statement of a turn reads a session's nodes in turn: each finds its rows by key", async () => {
    const s = await store.createSession({});
    await appendPairs(store, s.id, 50);
    const { dispatcher } = wireCompaction(store, { providers: offlineProviders() });
    const first = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "one" });
    recording = true;
    try {
      await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "two" });
      await dispatcher.runTurn({ sessionId: s.id, mode: "retry", targetId: first.reply.id });
    } finally {
      recording = false;
    }
    const onNodes = [...seen].filter(([sql]) => /"Node"|`Node`/.test(sql));
    expect(onNodes.length).toBeGreaterThan(5);
    const scans = onNodes.flatMap(([sql, db]) =>
      planOf(db, sql)
        .filter(readsTheSession)
        .map((step) => `${step} — ${sql.replace(/\s+/g, " ").slice(0, 160)}`),
    );
    expect(scans).toEqual([]);
  });
});
