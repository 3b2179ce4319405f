import { expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { isEngineError } from "@/lib/engine/errors";
import { tokens } from "@/lib/engine/ids";
import type { ChatProvider, StreamEvent } from "@/lib/llm/types";
import type { TurnEvent } from "@/lib/dispatcher/run-turn";
import type { SessionStore } from "@/lib/store/session-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { offlineProviders, wireCompaction } from "./support/compaction-helpers";
import { appendPairs } from "./support/ledger";
import { statementLog } from "./support/statement-log";

/** A provider that runs `atCall` when a request goes out, then answers unless aborted. */
function probe(atCall: (signal: AbortSignal | undefined) => Promise<void> | void): ChatProvider {
  return {
    kind: "offline",
    label: "probe (test double)",
    model: "probe",
    async *stream(request): AsyncIterable<StreamEvent> {
      await atCall(request.signal);
      if (request.signal?.aborted) {
        yield { type: "finish", reason: "aborted" };
        return;
      }
      yield { type: "text", text: "answer" };
      yield { type: "finish", reason: "stop" };
    },
    listModels: async () => [],
  };
}

/** `store` whose claims (`openTurn`) wait until `gate` opens. */
function heldClaims(store: SessionStore, gate: Promise<void>): SessionStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (prop !== "openTurn" || typeof v !== "function") return v;
      return async (...args: unknown[]) => {
        await gate;
        return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}

describeEachDatabase("[R292] the reply's request goes out while the claim commits", (kind) => {
  let database: Database;
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ database, store } = env));

  /**
   * A session of `pairs` turns whose provider notes, when a request goes out, whether a
   * statement of a write transaction (the claim) had run yet.
   */
  async function probedSession(pairs: number) {
    const { store: logged, log } = statementLog(database);
    const s = await logged.createSession({});
    await appendPairs(logged, s.id, pairs);
    const seen: { claimBegunAtCall?: boolean } = {};
    const providers = {
      ...offlineProviders(),
      chat: probe(() => {
        seen.claimBegunAtCall ??= log.some((x) => x.tx !== null);
      }),
    };
    const { dispatcher } = wireCompaction(logged, { providers });
    log.length = 0;
    return { s, dispatcher, seen, headId: (await logged.getSession(s.id)).headId };
  }

  it("[R292] a send calls the model before its claim's transaction and takes the first token after it", async () => {
    const { s, dispatcher, seen } = await probedSession(3);
    const events: TurnEvent[] = [];
    for await (const e of dispatcher.turn({ sessionId: s.id, mode: "send", content: "two" })) {
      events.push(e);
    }
    // The request went out before any statement of the claim ran.
    expect(seen.claimBegunAtCall).toBe(false);
    // Nothing of the reply reached the caller before the user node and the placeholder.
    expect(events.map((e) => e.type)).toEqual(["node", "node", "delta", "done"]);
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.node.status).toBe("complete");
    const reply = await store.node(s.id, done.node.id);
    expect(reply.content).toBe("answer");
    // Its reads are the prompt the early request carried: the spine and the user node.
    expect(reply.reads).toHaveLength(3 * 2 + 2);
    expect((await store.getSession(s.id)).headId).toBe(reply.id);
  });

  it("[R292] a retry, too, calls the model before the claim of its placeholder", async () => {
    const { s, dispatcher, seen, headId } = await probedSession(2);
    if (headId === null) throw new Error("no HEAD");
    const { reply } = await dispatcher.runTurn({
      sessionId: s.id,
      mode: "retry",
      targetId: headId,
    });
    expect(seen.claimBegunAtCall).toBe(false);
    expect(reply.content).toBe("answer");
    expect((await store.getSession(s.id)).headId).toBe(reply.id);
  });

  it("[R292] a claim refused after the request went out aborts it, and nothing of the turn is written", async () => {
    const s = await store.createSession({});
    await appendPairs(store, s.id, 2);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let signal: AbortSignal | undefined;
    const providers = {
      ...offlineProviders(),
      chat: probe(async (sig) => {
        signal = sig;
        // Another tab moves HEAD while this turn's claim waits: the send is no longer at HEAD.
        await store.appendNode({
          sessionId: s.id,
          predecessorId: "head",
          kind: "user",
          content: "from another tab",
          status: "complete",
          tokenCount: tokens(3),
          advanceHead: true,
        });
        open();
        // The request stays open until the turn aborts it.
        await new Promise<void>((resolve) => sig?.addEventListener("abort", () => resolve()));
      }),
    };
    const { dispatcher } = wireCompaction(heldClaims(store, gate), { providers });
    const refused = await dispatcher
      .runTurn({ sessionId: s.id, mode: "send", content: "mine" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isEngineError(refused) && refused.code).toBe("conflict");
    expect(signal?.aborted).toBe(true);
    const contents = (await store.nodes(s.id)).map((n) => n.content);
    expect(contents).toContain("from another tab");
    expect(contents).not.toContain("mine");
  });
});
