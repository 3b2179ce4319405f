/**
 * [R255] The cache-prefix benchmark (issue 23). One scripted conversation of 200 turns,
 * replayed through Spindle's real turn path — dispatcher, auto-compaction, the compactor,
 * the OpenAI-compatible provider over HTTP — under each compaction policy, against the
 * recording server, which answers the chat model with scripted replies and the summary
 * model with a scripted summary. Per policy, from the requests the server recorded:
 *
 *  - the share of each chat request that is a byte-identical prefix of the request before
 *    it (its `messages` as JSON: what a provider's prompt cache can reuse), averaged over
 *    every request, and over the requests that follow a compaction;
 *  - the prompt tokens sent (the real tokenizer, +4 a message as the budget counts them),
 *    and the tokens of the leading messages identical to the previous request's;
 *  - the summariser calls and the summaries written.
 *
 * These are counts, not times: the machine's load does not change them.
 *
 *   npx tsx bench/cache-prefix.bench.ts            (BENCH_TURNS, BENCH_WINDOW to vary)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrated } from "./measure";
import { startRecordingServer, type RecordedRequest } from "../tests/support/recording-server";
import type { Behaviour } from "../tests/support/recording-behaviours";

const TURNS = Number(process.env["BENCH_TURNS"] ?? 200);
const WINDOW = Number(process.env["BENCH_WINDOW"] ?? 8192);
const CHAT_MODEL = "bench-chat-model";
const SUMMARY_MODEL = "bench-summary-model";
const POLICIES = ["rolling-single", "segmented", "nested"] as const;

/** A small deterministic generator (mulberry32): the same conversation on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the parser cache release deploy schema migration index query latency budget token " +
  "window summary branch merge review test fixture module config secret rollout metric " +
  "alert dashboard owner ticket customer invoice export import retry backoff timeout " +
  "stream socket buffer queue worker thread memory profile flame graph regression fix"
).split(" ");

function words(rng: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i += 1) out.push(WORDS[Math.floor(rng() * WORDS.length)] ?? "the");
  return out.join(" ");
}

/** Turn k's user message and the reply the scripted model gives it. */
function script(k: number): { user: string; reply: string } {
  const rng = random(1000 + k);
  const user = `Turn ${k}: ${words(rng, 15 + Math.floor(rng() * 105))}?`;
  const reply = `Answer ${k}. ${words(rng, 60 + Math.floor(rng() * 390))}.`;
  return { user, reply };
}

/** What the scripted summariser writes: the summary structure, about 180 words. */
function summaryText(request: RecordedRequest): string {
  const rng = random(request.rawBody.length);
  return [
    `Goal: ${words(rng, 12)}`,
    "",
    "User requests (verbatim, oldest first):",
    ...Array.from({ length: 6 }, () => `- ${words(rng, 14)}`),
    "",
    "Decisions and key facts:",
    ...Array.from({ length: 5 }, () => `- ${words(rng, 12)}`),
    "",
    `Next step: ${words(rng, 10)}`,
  ].join("\n");
}

function turnOf(request: RecordedRequest): number {
  const messages = request.body?.["messages"];
  const last = Array.isArray(messages) ? (messages.at(-1) as { content?: unknown }) : undefined;
  const match = /^Turn (\d+):/.exec(typeof last?.content === "string" ? last.content : "");
  return match ? Number(match[1]) : -1;
}

function answer(request: RecordedRequest): Behaviour {
  if (request.body?.["model"] === SUMMARY_MODEL)
    return { kind: "reply", text: summaryText(request) };
  return { kind: "reply", text: script(turnOf(request)).reply };
}

interface Message {
  readonly role: string;
  readonly content: string | null;
}
const messagesOf = (r: RecordedRequest): Message[] => (r.body?.["messages"] ?? []) as Message[];

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spindle-bench-cache-"));
  const server = await startRecordingServer({
    models: [CHAT_MODEL, SUMMARY_MODEL],
    fallback: answer,
  });
  Object.assign(process.env, {
    DATABASE_URL: await migrated(dir, "bench.db"),
    OPENAI_BASE_URL: server.url,
    SPINDLE_MODEL: CHAT_MODEL,
    SPINDLE_SUMMARY_MODEL: SUMMARY_MODEL,
    SPINDLE_AUTH: "off",
  });
  // Imported after the environment is set: the services read it once.
  const { services, closeServices } = await import("../lib/server/services");
  const { countTokens } = await import("../lib/llm/tokens");
  const s = await services();
  const tokensOf = (messages: readonly Message[]) =>
    messages.reduce((n, m) => n + countTokens(m.content ?? "", CHAT_MODEL) + 4, 0);

  const rows: string[] = [];
  try {
    for (const policy of POLICIES) {
      const session = await s.store.createSession({
        title: `cache prefix, ${policy}`,
        settings: { policy, contextWindow: WINDOW },
      });
      const mark = server.requests.length;
      for (let k = 0; k < TURNS; k += 1) {
        await s.dispatcher.runTurn({
          sessionId: session.id,
          mode: "send",
          content: script(k).user,
        });
      }
      const recorded = server.requests
        .slice(mark)
        .filter((r) => r.path.endsWith("/chat/completions"));
      const chat = recorded.filter((r) => r.body?.["model"] === CHAT_MODEL);
      const summariser = recorded.filter((r) => r.body?.["model"] === SUMMARY_MODEL);
      // A request that follows a summariser call is the first after a compaction.
      const afterCompaction = new Set<RecordedRequest>();
      for (let i = 0; i < recorded.length; i += 1) {
        const r = recorded[i];
        if (r?.body?.["model"] !== SUMMARY_MODEL) continue;
        const next = recorded.slice(i + 1).find((x) => x.body?.["model"] === CHAT_MODEL);
        if (next) afterCompaction.add(next);
      }
      const shares: number[] = [];
      const atCompaction: number[] = [];
      let sent = 0;
      let reusable = 0;
      chat.forEach((r, i) => {
        const messages = messagesOf(r);
        sent += tokensOf(messages);
        const previous = chat[i - 1];
        if (previous === undefined) return;
        const before = messagesOf(previous);
        const json = JSON.stringify(messages);
        const share = commonPrefix(json, JSON.stringify(before)) / json.length;
        shares.push(share);
        if (afterCompaction.has(r)) atCompaction.push(share);
        let same = 0;
        while (
          same < before.length &&
          JSON.stringify(before[same]) === JSON.stringify(messages[same])
        )
          same += 1;
        reusable += tokensOf(messages.slice(0, same));
      });
      const nodes = await s.store.nodes(session.id);
      const summaries = nodes.filter((n) => n.kind === "summary");
      const nests = summaries.filter((n) => n.metadata.covers_summaries === true);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      const final = await s.dispatcher.context(session.id);
      rows.push(
        `| ${policy} | ${chat.length} | ${pct(mean(shares))} | ${pct(mean(atCompaction))} | ` +
          `${pct(Math.min(...shares))} | ${shares.filter((x) => x < 0.5).length} | ` +
          `${sent.toLocaleString("en")} | ${pct(reusable / sent)} | ${summariser.length} | ` +
          `${summaries.length}${nests.length > 0 ? ` (${nests.length} nested)` : ""} | ` +
          `${final.messages.filter((m) => m.kind === "summary").length} |`,
      );
      console.log(
        `${policy}: done (${chat.length} chat requests, ${summariser.length} summariser calls)`,
      );
    }
  } finally {
    await closeServices();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${TURNS} turns, window ${WINDOW} tokens, auto-compaction at 80%, kept tail 20%\n`);
  console.log(
    "| policy | chat requests | prefix share, mean | prefix share after a compaction | lowest | requests < 50% | prompt tokens sent | in leading messages unchanged | summariser calls | summaries written | summaries read at the end |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

await main();
