import { expect, it } from "vitest";
import { PgBus, payloads } from "@/lib/events/pg-bus";
import type { SessionEvent } from "@/lib/events/session-event";
import { asNodeId } from "@/lib/engine/ids";
import type { TurnEvent } from "@/lib/dispatcher/run-turn";
import type { SessionStore } from "@/lib/store/session-store";
import { describeEachDatabase, useFreshStore, type FreshStore } from "./support/databases";
import { recordEvents, testDispatcher } from "./support/dispatcher";
import { appendPairs } from "./support/ledger";
import { openTestSessionStore } from "./support/store-bus";

/** A session whose HEAD ends a spine of `pairs` user/assistant turns (written directly). */
async function longSpine(store: SessionStore, pairs: number) {
  const s = await store.createSession({});
  await appendPairs(store, s.id, pairs);
  return s;
}

function nodesOf(events: readonly (SessionEvent | TurnEvent)[]) {
  return events.flatMap((e) =>
    e.type === "node_appended" ||
    e.type === "turn_finished" ||
    e.type === "node" ||
    e.type === "done"
      ? [e.node]
      : e.type === "error" && e.node
        ? [e.node]
        : [],
  );
}

describeEachDatabase("[R115] slim events", (kind) => {
  let env: FreshStore;
  useFreshStore(kind, (e) => (env = e));

  it("[R115] the session channel and the turn stream carry lean nodes; the ledger keeps reads", async () => {
    const { store } = env;
    const s = await longSpine(store, 20);
    const { dispatcher, bus } = testDispatcher(store);
    const channel = recordEvents(bus, s.id);
    const stream: TurnEvent[] = [];
    const turn = dispatcher.turn({ sessionId: s.id, mode: "send", content: "and now?" });
    let step = await turn.next();
    while (!step.done) {
      stream.push(step.value);
      step = await turn.next();
    }
    const { reply } = step.value;
    // The turn's own result and the ledger are full: the reply read 42 nodes.
    expect(reply.reads.length).toBe(42);
    expect((await store.node(s.id, reply.id)).reads).toEqual(reply.reads);
    const carried = [...nodesOf(channel), ...nodesOf(stream)];
    expect(carried.map((n) => n.id)).toEqual(
      expect.arrayContaining([reply.id, step.value.user?.id]),
    );
    expect(carried.filter((n) => n.id === reply.id).length).toBe(4);
    for (const node of carried) {
      expect(node.partial).toBe("reads");
      expect(node.reads).toEqual([]);
    }
    const done = stream.find((e) => e.type === "done");
    expect(done?.type === "done" && done.node.content).toBe(reply.content);
  });

  it.runIf(kind === "postgresql")(
    "[R115] lean nodes fit a NOTIFY: other instances get the events, node_changed only for a huge text",
    async () => {
      const { test, database } = env;
      const s = await longSpine(env.store, 150);
      const a = await PgBus.connect(test.url);
      const b = await PgBus.connect(test.url);
      // Instance A: its store announces its writes on A's bus, as in lib/server/services.ts.
      const store = openTestSessionStore({ database, events: a });
      try {
        const { dispatcher } = testDispatcher(store, { bus: a });
        const got: SessionEvent[] = [];
        let finished = 0;
        const done = new Promise<void>((resolve) =>
          b.subscribe(s.id, (e) => {
            got.push(e);
            if (e.type === "turn_finished" && ++finished === 2) resolve();
            if (e.type === "node_changed" && ++finished === 2) resolve();
          }),
        );
        const first = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "hi" });
        // Its full form would not fit: 302 ids of reads alone are over the NOTIFY limit.
        expect(JSON.stringify(first.reply).length).toBeGreaterThan(7_500);
        await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "y".repeat(10_000) });
        await done;
        const kinds = got.filter((e) => e.type !== "delta" && e.type !== "head_moved");
        expect(kinds.slice(0, 3).map((e) => e.type)).toEqual([
          "node_appended",
          "node_appended",
          "turn_finished",
        ]);
        // The 10,000-character message alone is over the limit: its id, to fetch by `?ids=`.
        expect(kinds.slice(3).map((e) => e.type)).toContain("node_changed");
        for (const e of got) {
          if (e.type === "node_appended" || e.type === "turn_finished") {
            expect(e.node.partial).toBe("reads");
          }
        }
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  it.runIf(kind === "postgresql")(
    "[R115] a nodes_removed over the NOTIFY limit travels as several nodes_removed, none lost",
    async () => {
      const { store, test } = env;
      const s = await store.createSession({});
      // A big branch delete: 1,000 ids are about 29 KB of JSON.
      const ids = Array.from({ length: 1000 }, (_, i) =>
        asNodeId(`01J${String(i).padStart(23, "0")}`),
      );
      const event: SessionEvent = { type: "nodes_removed", ids };
      const split = payloads("origin", s.id, event);
      expect(split.length).toBeGreaterThan(3);
      for (const p of split) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(8000);
      const a = await PgBus.connect(test.url);
      const b = await PgBus.connect(test.url);
      try {
        const got: SessionEvent[] = [];
        let seen = 0;
        const done = new Promise<void>((resolve) =>
          b.subscribe(s.id, (e) => {
            got.push(e);
            if (e.type === "nodes_removed") seen += e.ids.length;
            if (seen >= ids.length || e.type === "session_changed") resolve();
          }),
        );
        a.publish(s.id, event);
        await done;
        expect(got.map((e) => e.type)).toEqual(split.map(() => "nodes_removed"));
        expect(got.flatMap((e) => (e.type === "nodes_removed" ? e.ids : []))).toEqual(ids);
      } finally {
        await a.close();
        await b.close();
      }
    },
  );
});
