import { expect, it } from "vitest";
import { tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { ChatProvider, StreamEvent } from "@/lib/llm/types";
import type { SessionStore } from "@/lib/store/session-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { offlineProviders, wireCompaction } from "./support/compaction-helpers";

/** A session: a spine of `pairs` turns, and `dead` nodes on side branches off its middle. */
async function session(store: SessionStore, pairs: number, dead: number) {
  const s = await store.createSession({});
  let middle: NodeId | undefined;
  for (let i = 0; i < pairs; i++) {
    for (const kind of ["user", "assistant"] as const) {
      const { node } = await store.appendNode({
        sessionId: s.id,
        predecessorId: "head",
        kind,
        content: `${kind} ${i} `.repeat(20),
        status: "complete",
        tokenCount: tokens(60),
        advanceHead: true,
      });
      if (i === Math.floor(pairs / 2) && kind === "assistant") middle = node.id;
    }
  }
  let p = middle as NodeId;
  for (let i = 0; i < dead; i++) {
    const { node } = await store.appendNode({
      sessionId: s.id,
      predecessorId: i % 20 === 0 ? (middle as NodeId) : p,
      kind: i % 2 ? "assistant" : "user",
      content: `dead ${i} `.repeat(20),
      status: "complete",
      tokenCount: tokens(60),
      advanceHead: false,
    });
    p = node.id;
  }
  return s;
}

interface Trace {
  /** Store calls before the model was called, with what they returned. */
  calls: { name: string; args: unknown[]; rows: number }[];
  modelCalled: boolean;
  stamped: boolean;
  /**
   * At the model call, the reads stamp had not landed; when the reply took the model's first
   * event, the user node was in the ledger (the call itself may go out before the claim
   * commits, [R292]).
   */
  atModel?: { userDurable: boolean; stamped: boolean };
  /** The reads stamp waits for this; the model call opens it. */
  gate: Promise<void>;
  release: () => void;
}

/** A trace whose reads stamp waits for the model call (a turn that awaited it would hang). */
function newTrace(): Trace {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  return { calls: [], modelCalled: false, stamped: false, release, gate };
}

/** The store, tracing every call until the model is called; the reads stamp is held back. */
function traced(store: SessionStore, trace: Trace): SessionStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      const fn = (v as (...a: unknown[]) => Promise<unknown>).bind(target);
      return async (...args: unknown[]) => {
        if (prop === "stampReads") {
          await trace.gate;
          await fn(...args);
          trace.stamped = true;
          return undefined;
        }
        const result = await fn(...args);
        if (!trace.modelCalled) {
          const rows = Array.isArray(result) ? result.length : result ? 1 : 0;
          trace.calls.push({ name: String(prop), args, rows });
        }
        return result;
      };
    },
  });
}

function firstTokenProbe(
  store: SessionStore,
  trace: Trace,
  sessionId: SessionId,
  content: string,
): ChatProvider {
  return {
    kind: "offline",
    label: "probe (test double)",
    model: "probe",
    async *stream(): AsyncIterable<StreamEvent> {
      trace.modelCalled = true;
      trace.release();
      const stamped = trace.stamped;
      yield { type: "text", text: "answer" };
      // Resumed: the reply took the first event and asks for the next.
      const ledger = await store.nodes(sessionId);
      trace.atModel = {
        userDurable: ledger.some((n) => n.kind === "user" && n.content === content),
        stamped,
      };
      yield { type: "finish", reason: "stop" };
    },
    listModels: async () => [],
  };
}

describeEachDatabase("[R118] the turn path to the first token", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  async function run(pairs: number, dead: number) {
    const s = await session(store, pairs, dead);
    const trace = newTrace();
    const content = `question ${pairs}-${dead}`;
    const providers = {
      ...offlineProviders(),
      chat: firstTokenProbe(store, trace, s.id, content),
    };
    const { dispatcher } = wireCompaction(traced(store, trace), { providers });
    const { reply } = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content });
    return { trace, reply };
  }

  it("[R118] one spine query, no reads, the user node durable, nothing else awaited", async () => {
    const { trace, reply } = await run(20, 0);
    // One spine walk: from the head the turn's load read, without `reads` (issue 19).
    const spines = trace.calls.filter((c) => c.name === "spine" || c.name === "spineOf");
    expect(spines).toHaveLength(1);
    expect(spines[0]?.name).toBe("spineOf");
    expect((spines[0]?.args[1] as LedgerNode).reads).toEqual([]);
    // By-id reads leave `reads` out too: explicitly, or as final nodes ([R136]).
    for (const c of trace.calls.filter((x) => x.name === "nodesById")) {
      expect([{ reads: false }, { final: true }]).toContainEqual(c.args[2]);
    }
    expect(trace.calls.map((c) => c.name)).not.toContain("nodes");
    expect(trace.atModel).toEqual({ userDurable: true, stamped: false });
    // The stamp landed beside the stream, and the seal recorded the prompt.
    expect(trace.stamped).toBe(true);
    expect(reply.reads).toHaveLength(42);
    expect((await store.node(reply.sessionId, reply.id)).reads).toEqual(reply.reads);
  });

  it("[R118] what is read before the first token does not grow with the ledger", async () => {
    const small = await run(12, 0);
    const big = await run(12, 300);
    const shape = (t: Trace) => t.calls.map((c) => `${c.name}:${c.rows}`);
    expect(shape(big.trace)).toEqual(shape(small.trace));
    expect(big.reply.reads).toEqual(expect.any(Array));
    expect(big.reply.reads).toHaveLength(small.reply.reads.length);
  });
});
