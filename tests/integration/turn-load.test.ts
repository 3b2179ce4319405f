import { expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import type { ChatProvider, StreamEvent } from "@/lib/llm/types";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { offlineProviders, wireCompaction } from "./support/compaction-helpers";
import { appendPairs } from "./support/ledger";
import { statementLog, type Statement } from "./support/statement-log";

/** A provider that notes when it is called, then answers one word. */
function probe(onCall: () => void): ChatProvider {
  return {
    kind: "offline",
    label: "probe (test double)",
    model: "probe",
    async *stream(): AsyncIterable<StreamEvent> {
      onCall();
      yield { type: "text", text: "answer" };
      yield { type: "finish", reason: "stop" };
    },
    listModels: async () => [],
  };
}

describeEachDatabase("[R118] one load per turn, handed down", (kind) => {
  let database: Database;
  useFreshStore(kind, (env) => ({ database } = env));

  /**
   * The statements a warm turn asks of the database before the model is called, and all of
   * the turn's statements.
   */
  async function turnStatements(
    mode: "send" | "retry",
  ): Promise<{ atModel: Statement[]; all: Statement[] }> {
    const { store, log } = statementLog(database);
    const s = await store.createSession({});
    await appendPairs(store, s.id, 5);
    let atModel: Statement[] | undefined;
    const providers = {
      ...offlineProviders(),
      chat: probe(() => (atModel ??= [...log])),
    };
    const { dispatcher } = wireCompaction(store, { providers });
    // A first turn warms the final-node cache, as every turn after a session's first is.
    const first = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "one" });
    log.length = 0;
    atModel = undefined;
    await dispatcher.runTurn(
      mode === "send"
        ? { sessionId: s.id, mode: "send", content: "two" }
        : { sessionId: s.id, mode: "retry", targetId: first.reply.id },
    );
    if (atModel === undefined) throw new Error("the model was never called");
    return { atModel, all: [...log] };
  }

  /** What a statement is: the operation, or the table and columns a raw statement reads. */
  const what = (x: Statement) =>
    x.name.startsWith("raw: SELECT s.")
      ? "load: session, leases"
      : x.name.startsWith('raw: SELECT ? FROM "Node" n WHERE n."sessionId" = ? AND n."id" IN')
        ? "load: nodes"
        : x.name.startsWith('raw: UPDATE "Session" SET "nextSeq"')
          ? "lock"
          : x.name.includes('AS "predecessorKind"')
            ? "checks: predecessor, live stream, clock"
            : x.name.startsWith('raw: INSERT INTO "Node"')
              ? "insert nodes"
              : x.name.startsWith('raw: UPDATE "Session" SET ? WHERE')
                ? "move HEAD"
                : x.name;
  /** The reads before the claim: outside any transaction. */
  const reads = (log: readonly Statement[]) =>
    log.filter((x) => x.tx === null && x.name !== "transaction").map(what);
  /** The claim: the first write transaction (the reads stamp may run beside the model). */
  const claim = (log: readonly Statement[]) => log.filter((x) => x.tx === 1).map(what);
  const sessionReads = (log: readonly Statement[]) =>
    log.filter((x) => /^session\.find|^raw: .*FROM "Session"/.test(x.name));

  it("[R118] a send: two reads, then one claim transaction that re-reads nothing", async () => {
    const { atModel, all: log } = await turnStatements("send");
    // The load: the session row with its leases, then the named nodes, HEAD and summaries.
    const claimAt = log.findIndex((x) => x.tx !== null);
    expect(reads(log.slice(0, claimAt))).toEqual(["load: session, leases", "load: nodes"]);
    // The model is called after the load and before the claim, which commits beside the
    // request ([R292]).
    expect(atModel.map(what)).toEqual(["load: session, leases", "load: nodes"]);
    // The claim: the lock (the row's one write), the live-stream re-check with the clock, the
    // user node and its reply in one insert, HEAD — no read of the session row or of HEAD's
    // node (HEAD's compare-and-swap stands for it).
    expect(claim(log)).toEqual([
      "lock",
      "checks: predecessor, live stream, clock",
      "insert nodes",
      "move HEAD",
    ]);
    expect(sessionReads(log)).toHaveLength(1);
  });

  it("[R118] a retry: the same two reads; the claim reads the parent once, under the lock", async () => {
    const { atModel, all: log } = await turnStatements("retry");
    const claimAt = log.findIndex((x) => x.tx !== null);
    expect(reads(log.slice(0, claimAt))).toEqual(["load: session, leases", "load: nodes"]);
    // Its prompt is rendered from the load: it goes out before the claim too ([R292]).
    expect(atModel.map(what)).toEqual(["load: session, leases", "load: nodes"]);
    // The parent is read once, under the lock, in the same read as the live stream.
    expect(claim(log)).toEqual([
      "lock",
      "checks: predecessor, live stream, clock",
      "insert nodes",
      "move HEAD",
    ]);
    expect(sessionReads(log)).toHaveLength(1);
  });
});
