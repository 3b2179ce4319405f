import { expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { tokens } from "@/lib/engine/ids";
import { countingStore } from "./support/counting-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";

describeEachDatabase(
  "[R137] loading a session seals orphans without taking the lock for nothing",
  (kind) => {
    let database: Database;
    useFreshStore(kind, (env) => ({ database } = env));

    it("[R137] no orphan: a read, no write transaction; an orphan: sealed in one", async () => {
      const { store, counts } = countingStore(database);
      const s = await store.createSession({});
      const user = await store.append({
        sessionId: s.id,
        predecessorId: "head",
        kind: "user",
        content: "hello",
        status: "complete",
        tokenCount: tokens(1),
        advanceHead: true,
      });
      // A live reply (its lease runs) is no orphan either.
      await store.append({
        sessionId: s.id,
        predecessorId: user.node.id,
        kind: "assistant",
        content: "",
        status: "streaming",
        tokenCount: tokens(0),
        advanceHead: false,
        leaseMs: 60_000,
      });
      counts.transactions = 0;
      expect(await store.sealOrphans({ everything: false, sessionId: s.id })).toBe(0);
      expect(counts.transactions).toBe(0);

      // A lease that already ran out: the writer is gone.
      const { node: orphan } = await store.append({
        sessionId: s.id,
        predecessorId: user.node.id,
        kind: "assistant",
        content: "partial",
        status: "streaming",
        tokenCount: tokens(0),
        advanceHead: false,
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
