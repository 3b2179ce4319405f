// A separate writer process for the concurrency and crash tests: its own connection to
// the database, as a second app instance would have.
//   append <url> <sessionId> <count>   append `count` user nodes at HEAD, one write each
//   stream <url> <sessionId>           run one slow turn (prints "streaming <id>" once text is stored)
import { openDatabase } from "@/lib/db/client";
import { asNodeId, asSessionId } from "@/lib/engine/ids";
import { tokens } from "@/lib/engine/ids";
import { createProviders } from "@/lib/llm/provider-factory";
import { countTokens } from "@/lib/llm/tokens";
import { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { openTestSessionStore, busOf } from "./store-bus";

const [mode, url, sessionArg, countArg] = process.argv.slice(2);
if (!mode || !url || !sessionArg)
  throw new Error("usage: child-writer <append|stream> <url> <sessionId> [count]");
const sessionId = asSessionId(sessionArg);
const database = await openDatabase(url);
const store = openTestSessionStore({ database });

if (mode === "append") {
  const count = Number(countArg ?? 25);
  for (let i = 0; i < count; i++) {
    await store.appendNode({
      sessionId,
      predecessorId: "head",
      kind: "user",
      content: `writer ${process.pid} message ${i}`,
      status: "complete",
      tokenCount: tokens(5),
      advanceHead: true,
    });
  }
  await database.close();
  process.exit(0);
}

/** Prints "streaming <id>" once the reply's row holds some of its text. */
async function announceOnceStored(id: string): Promise<void> {
  for (;;) {
    const node = await store.node(sessionId, asNodeId(id));
    if (node.content.length > 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(`streaming ${id}`);
}

if (mode === "stream") {
  const providers = createProviders({
    openai: undefined,
    model: undefined,
    summaryModel: undefined,
    offlineDelayMs: 40,
    contextWindow: undefined,
  });
  const dispatcher = new Dispatcher({
    store,
    bus: busOf(store),
    providers,
    config: { maxMessageChars: 200_000 },
    count: (t, m) => countTokens(t, m),
    flushMs: 30,
    leaseMs: 1_000,
    keepAliveMs: 200,
  });
  let announced = false;
  for await (const event of dispatcher.turn({
    sessionId,
    mode: "send",
    content: "Tell me a long story.",
  })) {
    if (event.type === "delta" && !announced) {
      // Tell the parent once a flush has put partial text into the ledger: read it back
      // rather than guess how long a flush takes on a busy machine.
      announced = true;
      void announceOnceStored(event.id);
    }
  }
  console.log("finished");
  process.exit(0);
}
