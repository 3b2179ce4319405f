import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, it, describe } from "vitest";
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

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (entry === "generated" || entry === "node_modules") continue;
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (/\.tsx?$/.test(entry)) out.push(full);
  }
  return out;
}

const files = [...sources("lib"), ...sources("app"), ...sources("components")].map((f) => ({
  file: f,
  text: readFileSync(f, "utf8"),
}));

describe("[R62] HEAD has one writer (structural)", () => {
  it("[R62] only lib/store and lib/db reach the database client", () => {
    const offenders = files.filter(
      ({ file, text }) =>
        /generated\/prisma|@prisma\/client|\$transaction|\.session\.(update|updateMany|upsert)\(/.test(
          text,
        ) &&
        !file.startsWith("lib/store/") &&
        !file.startsWith("lib/db/"),
    );
    expect(offenders.map((o) => o.file)).toEqual([]);
  });

  it("[R62] the store writes headId only in setHead, the append rule, branch delete and session creation", () => {
    const store = files.find((f) => f.file === "lib/store/session-store.ts")?.text ?? "";
    const methods = [...store.matchAll(/^ {2}(?:async |private async )?(\w+)\(/gm)].map((m) => ({
      name: m[1],
      at: m.index,
    }));
    const writers = new Set<string>();
    for (const m of store.matchAll(/headId: (?!null|[A-Z])/g)) {
      const owner = methods.filter((x) => x.at < m.index).at(-1)?.name;
      if (owner) writers.add(owner);
    }
    expect([...writers].sort()).toEqual(["append", "createSession", "importSession", "setHead"]);
    expect(store).toMatch(/data\.headId = decided\.headAfter/); // removeNodes: the branch-delete move
  });

  it("[R62] inside lib/dispatcher only Dispatcher.moveHead calls setHead, and only turn-writer appends", () => {
    const dispatcherFiles = files.filter((f) => f.file.startsWith("lib/dispatcher/"));
    const setHeadCalls = dispatcherFiles.flatMap(({ file, text }) =>
      [...text.matchAll(/\.setHead\(/g)].map(() => file),
    );
    expect(setHeadCalls).toEqual(["lib/dispatcher/dispatcher.ts"]);
    const dispatcher =
      dispatcherFiles.find((f) => f.file === "lib/dispatcher/dispatcher.ts")?.text ?? "";
    expect(dispatcher.match(/\.setHead\(/g)).toHaveLength(1);
    expect(dispatcher).toMatch(
      /private async moveHead\([^)]*\)[^{]*\{\s*const session = await this\.deps\.store\.setHead/,
    );
    const appenders = files
      .filter(({ text }) => /store\.append\(|deps\.store\.append\(/.test(text))
      .map((f) => f.file)
      .sort();
    // The turn writer (every chain write of a turn) and compaction's one head-neutral insert.
    expect(appenders).toEqual(["lib/compaction/compactor.ts", "lib/dispatcher/turn-writer.ts"]);
  });
});

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
