import pg from "pg";
import { describe, expect, it } from "vitest";
import { asNodeId, tokens } from "@/lib/engine/ids";
import type { SessionStore } from "@/lib/store/session-store";
import { DATABASE_KINDS, useFreshStore, type TestDatabase } from "./support/databases";

const pgEnabled = DATABASE_KINDS.some((d) => d.kind === "postgresql" && d.enabled);

/**
 * On PostgreSQL (READ COMMITTED) a statement sees what was committed before it began. The
 * claim's checks are a statement that begins once the session's lock is held, so a claim
 * that waited for the lock sees the reply its holder committed. Folded into the lock's own
 * statement (`UPDATE … RETURNING (SELECT …)`), they would read the snapshot taken before
 * the wait, and two replies would stream at once (docs/decisions.md, "The turn's claim in
 * raw SQL"). SQLite has one writer for the whole file: no claim waits inside a statement.
 */
(pgEnabled ? describe : describe.skip)(
  "[R24] the claim's checks run under the lock [postgresql]",
  () => {
    let store: SessionStore;
    let test: TestDatabase;
    useFreshStore("postgresql", (env) => ({ store, test } = env));

    it("[R24] a claim that waited for the session's lock is refused by the streaming reply its holder committed", async () => {
      const s = await store.createSession({});
      const root = asNodeId(s.rootId ?? "");
      const holder = new pg.Client({ connectionString: test.url });
      await holder.connect();
      try {
        // Another writer (another instance's claim) takes the lock and opens a reply.
        await holder.query("BEGIN");
        const { rows } = await holder.query<{ nextSeq: number }>(
          `UPDATE "Session" SET "nextSeq" = "nextSeq" + 1 WHERE "id" = $1 RETURNING "nextSeq"`,
          [s.id],
        );
        await holder.query(
          `INSERT INTO "Node" ("id", "sessionId", "predecessorId", "seq", "kind", "content",
                             "status", "leaseUntil")
         VALUES ('holders-reply', $1, $2, $3, 'assistant', '', 'streaming',
                 (now() AT TIME ZONE 'UTC') + interval '1 minute')`,
          [s.id, root, (rows[0]?.nextSeq ?? 0) - 1],
        );
        // A fork from ROOT: no compare-and-swap on HEAD, so only the live-stream check can
        // refuse it.
        const claim = store.openTurn({
          sessionId: s.id,
          predecessorId: root,
          kind: "user",
          content: "a second turn",
          status: "complete",
          tokenCount: tokens(3),
          advanceHead: true,
          placeholder: { metadata: {}, leaseMs: 30_000 },
        });
        const outcome = claim.then(
          () => "claimed",
          (e: unknown) => (e as { code?: string }).code ?? String(e),
        );
        // Commit only once the claim is waiting for the row lock.
        for (let waited = 0; ; waited += 20) {
          const waiting = await holder.query<{ n: string }>(
            `SELECT count(*) AS "n" FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          if (Number(waiting.rows[0]?.n) > 0) break;
          if (waited > 10_000) throw new Error("the claim never waited for the lock");
          await new Promise((r) => setTimeout(r, 20));
        }
        await holder.query("COMMIT");
        expect(await outcome).toBe("turn_in_progress");
        const users = (await store.nodes(s.id)).filter((n) => n.kind === "user");
        expect(users).toHaveLength(0);
      } finally {
        await holder.end();
      }
    });
  },
);
