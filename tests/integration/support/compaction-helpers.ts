import { Compactor, type CompactorDeps } from "@/lib/compaction/compactor";
import { AgentLoops } from "@/lib/dispatcher/agent-loops";
import type { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { contextTokens } from "@/lib/engine/context-tokens";
import type { NodeId, SessionId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionEvent } from "@/lib/events/session-event";
import { createProviders, type Providers } from "@/lib/llm/provider-factory";
import { countTokens } from "@/lib/llm/tokens";
import type { Summarizer, SummaryRequest } from "@/lib/llm/types";
import type { SessionStore } from "@/lib/store/session-store";
import type { RecordedRequest, RecordingServer } from "../../support/recording-server";
import { recordEvents, testDispatcher } from "./dispatcher";
import { busOf } from "./store-bus";

/** The offline model (no delay): the chat model and the extractive summariser. */
export function offlineProviders(): Providers {
  return createProviders({
    openai: undefined,
    model: undefined,
    summaryModel: undefined,
    offlineDelayMs: 0,
    contextWindow: undefined,
  });
}

/**
 * The OpenAI-compatible provider against the recording server. Retries are fast but not
 * off: an overflow wrongly treated as retryable would show up as an extra recorded request.
 */
export function recordingProviders(server: RecordingServer): Providers {
  return createProviders(
    {
      openai: { baseUrl: server.url, apiKey: undefined },
      model: "spindle-test-model",
      summaryModel: undefined,
      offlineDelayMs: 0,
      contextWindow: undefined,
    },
    { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, random: () => 0 } },
  );
}

/** The same providers with another summariser. */
export function withSummarizer(providers: Providers, summarizer: Summarizer): Providers {
  return { ...providers, summarizer };
}

export interface SummaryCall {
  readonly request: SummaryRequest;
  readonly result: string;
}

/** A Summarizer that records every call and delegates to `inner`. */
export function spySummarizer(inner: Summarizer): Summarizer & { readonly calls: SummaryCall[] } {
  const calls: SummaryCall[] = [];
  return {
    kind: inner.kind,
    calls,
    async summarize(request) {
      const result = await inner.summarize(request);
      calls.push({ request, result });
      return result;
    },
  };
}

/**
 * TEST DOUBLE for the shrink guard: a summariser whose "summary" is far larger than the
 * slice it stands in for. A real summariser never does this on purpose; the guard exists for
 * models that ramble or echo their input.
 */
export function bloatedSummarizer(): Summarizer & { readonly calls: SummaryCall[] } {
  return spySummarizer({
    kind: "llm",
    summarize: () =>
      Promise.resolve(
        Array.from(
          { length: 400 },
          (_, i) => `Point ${i}: the conversation said many things at length.`,
        ).join("\n"),
      ),
  });
}

/** A dispatcher and a Compactor on one bus, wired as lib/server/services.ts wires them. */
export function wireCompaction(
  store: SessionStore,
  options: {
    providers?: Providers;
    serverWindow?: number;
    serverKeepRecentTokens?: number;
    /** false: the dispatcher runs without compaction (no auto, no reactive). */
    turnCompaction?: boolean;
  } = {},
) {
  const bus = busOf(store);
  const providers = options.providers ?? offlineProviders();
  const loops = new AgentLoops();
  const deps: CompactorDeps = {
    store,
    bus,
    providers,
    isBusy: (id) => loops.has(id),
    count: (t, m) => countTokens(t, m),
    serverWindow: options.serverWindow,
    serverKeepRecentTokens: options.serverKeepRecentTokens,
  };
  const compactor = new Compactor(deps);
  const { dispatcher } = testDispatcher(store, {
    bus,
    providers,
    loops,
    ...(options.turnCompaction === false ? {} : { compaction: compactor }),
  });
  return {
    bus,
    providers,
    compactor,
    dispatcher,
    events: (sessionId: SessionId): SessionEvent[] => recordEvents(bus, sessionId),
  };
}

/** Varied user messages: questions, numbers, file names, so summaries have content. */
export function userMessage(i: number): string {
  const topics = ["the parser", "the cache layer", "the billing export", "the deploy script"];
  const topic = topics[i % topics.length] ?? "the code";
  const padding = " It matters because the release is close.".repeat(1 + (i % 3));
  return (
    `Turn ${i}: what should we change in ${topic} (see src/module_${i}.ts, ticket #${1000 + i})?` +
    padding
  );
}

/** Runs `n` send turns at HEAD; returns the results in order. */
export async function chat(dispatcher: Dispatcher, sessionId: SessionId, n: number, from = 0) {
  const out = [];
  for (let i = from; i < from + n; i++) {
    out.push(await dispatcher.runTurn({ sessionId, mode: "send", content: userMessage(i) }));
  }
  return out;
}

/** The session's HEAD (a session under test always has one). */
export async function headOf(store: SessionStore, sessionId: SessionId): Promise<NodeId> {
  const h = (await store.getSession(sessionId)).headId;
  if (h === null) throw new Error("the session has no HEAD");
  return h;
}

/** Ids of the spine from `from`, ROOT first. */
export async function spineIds(
  store: SessionStore,
  sessionId: SessionId,
  from: NodeId,
): Promise<NodeId[]> {
  return (await store.spine(sessionId, from)).map((n) => n.id);
}

/** Prompt tokens of the rendering from `from` (default HEAD). */
export async function renderedTokens(
  dispatcher: Dispatcher,
  sessionId: SessionId,
  from?: NodeId,
): Promise<number> {
  return contextTokens((await dispatcher.context(sessionId, from)).messages);
}

export async function summaries(store: SessionStore, sessionId: SessionId): Promise<LedgerNode[]> {
  return (await store.nodes(sessionId)).filter((n) => n.kind === "summary");
}

/** The `messages` of a recorded chat request. */
export function messagesOf(
  request: RecordedRequest | undefined,
): { role: string; content: string }[] {
  const messages = request?.body?.["messages"];
  if (!Array.isArray(messages)) throw new Error("the request carried no messages");
  return messages as { role: string; content: string }[];
}

/**
 * A summariser that holds every call until `release()`: `arrived(n)` resolves once n calls
 * are waiting, so a test can let another write land while a compaction's summary is being
 * written.
 */
export function gatedSummarizer(inner: Summarizer) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((r) => (open = r));
  let calls = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const summarizer: Summarizer = {
    kind: inner.kind,
    async summarize(request) {
      calls += 1;
      for (const w of waiters) if (calls >= w.n) w.resolve();
      await gate;
      return inner.summarize(request);
    },
  };
  return {
    summarizer,
    release: () => open(),
    arrived: (n: number) =>
      calls >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
  };
}
