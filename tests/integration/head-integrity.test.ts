import { beforeAll, expect, it } from "vitest";
import { Compactor } from "@/lib/compaction/compactor";

import type { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { asNodeId } from "@/lib/engine/ids";
import type { SessionStore } from "@/lib/store/session-store";
import {
  describeEachDatabase,
  openTestStore,
  type TestDatabase,
  useFreshStore,
} from "./support/databases";
import { wireCompaction } from "./support/compaction-helpers";

describeEachDatabase(
  "[R64] compaction, load, restart, model switch and meta saves never move HEAD",
  (kind) => {
    let test: TestDatabase;
    let store: SessionStore;
    let dispatcher: Dispatcher;
    let compactor: Compactor;
    useFreshStore(kind, (env) => ({ test, store } = env));

    beforeAll(async () => {
      ({ dispatcher, compactor } = wireCompaction(store));
    });

    it("[R64] HEAD stays on its tip through every non-move", async () => {
      const s = await store.createSession({});
      await store.updateMeta(s.id, (m) => ({ ...m, settings: { keepRecentTokens: 100 } }));
      for (const q of ["one?", "two?", "three?"])
        await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: q });
      const head = (await store.getSession(s.id)).headId;

      // Checkout elsewhere, then back: the tip we compare against is explicit.
      await dispatcher.checkout(s.id, asNodeId(s.rootId ?? ""));
      await dispatcher.checkout(s.id, asNodeId(head ?? ""));

      const c = await compactor.compact(await store.getSession(s.id));
      expect(c.summary).not.toBeNull();
      expect((await store.getSession(s.id)).headId).toBe(head);

      await store.updateMeta(s.id, (m) => ({
        ...m,
        settings: { ...m.settings, model: "another-model" },
      }));
      await store.renameSession(s.id, "renamed");
      expect((await store.getSession(s.id)).headId).toBe(head);

      await store.sealOrphans({ everything: true });
      const reopened = await openTestStore(test);
      try {
        expect((await reopened.store.getSession(s.id)).headId).toBe(head);
      } finally {
        await reopened.database.close();
      }
    });
  },
);
