import { expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { countingStore } from "./support/counting-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { appendNode } from "./support/ledger";

describeEachDatabase(
  "[R137] loading a session seals orphans without taking the lock for nothing",
  (kind) => {
    let database: Database;
    useFreshStore(kind, (env) => ({ database } = env));

    it("[R137] no orphan: a read, no write transaction; an orphan: sealed in one", async () => {
      const { store, counts } = countingStore(database);
      const s = await store.createSession({});
      const user = await appendNode(store, s.id, "head", "user");
      // A live reply (its lease runs) is no orphan either.
      await appendNode(store, s.id, user.id, "assistant", {
        status: "streaming",
        leaseMs: 60_000,
      });
      counts.transactions = 0;
      expect(await store.sealOrphans({ everything: false, sessionId: s.id })).toBe(0);
      expect(counts.transactions).toBe(0);

      // A lease that already ran out: the writer is gone.
      const orphan = await appendNode(store, s.id, user.id, "assistant", {
        content: "partial",
        status: "streaming",
        leaseMs: -60_000,
      });
      counts.transactions = 0;
      expect(await store.sealOrphans({ everything: false, sessionId: s.id })).toBe(1);
      expect(counts.transactions).toBe(1);
      expect(await store.node(s.id, orphan.id)).toMatchObject({
        status: "interrupted",
        content: "partial",
      });
    });
  },
);
