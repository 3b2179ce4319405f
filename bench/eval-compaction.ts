/**
 * `npm run eval:compaction`: how much compaction loses, measured on the shipped corpus of
 * long synthetic conversations with planted facts, artifacts, decisions and pending asks
 * (bench/compaction-eval). Offline by default (the extractive summariser, a literal lookup);
 * with `--base-url` and `--model`, summaries are written and probes answered by that
 * OpenAI-compatible endpoint (the key, if any, from OPENAI_API_KEY). docs/models.md.
 *
 *   npm run eval:compaction
 *   npm run eval:compaction -- --base-url http://127.0.0.1:11434/v1 --model qwen2.5:14b
 *   npm run eval:compaction -- --windows 1000,4000 --limit 5 --json out.json
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { collectStream } from "../lib/llm/collect-stream";
import { createExtractiveSummarizer } from "../lib/llm/extractive-summarizer";
import { createLlmSummarizer } from "../lib/llm/llm-summarizer";
import { OFFLINE_MODEL_ID } from "../lib/llm/offline-model";
import { createOpenAIProvider } from "../lib/llm/openai-provider";
import type { ChatMessage } from "../lib/llm/types";
import {
  evaluateConversation,
  type ConversationOutcome,
  type EvalSetup,
} from "./compaction-eval/evaluate";
import { loadCorpus } from "./compaction-eval/load-corpus";
import { buildReport, renderMarkdown } from "./compaction-eval/report";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    model: { type: "string" },
    "summary-model": { type: "string" },
    windows: { type: "string", default: "1000,2500,5000" },
    "context-window": { type: "string", default: "16384" },
    limit: { type: "string" },
    concurrency: { type: "string", default: "4" },
    json: { type: "string" },
    markdown: { type: "string" },
  },
});

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
  return n;
}

const baseUrl = values["base-url"];
const model = values.model;
if ((baseUrl === undefined) !== (model === undefined)) {
  console.error("eval:compaction: --base-url and --model go together (or neither: offline).");
  process.exit(2);
}
const keptWindows = (values.windows ?? "").split(",").map((w) => positive("windows", w.trim()));
const contextWindow = positive("context-window", values["context-window"] ?? "");
const concurrency = positive("concurrency", values.concurrency ?? "");
let corpus = loadCorpus();
if (values.limit !== undefined) corpus = corpus.slice(0, positive("limit", values.limit));

let setup: EvalSetup;
let summaryModel = OFFLINE_MODEL_ID;
if (baseUrl !== undefined && model !== undefined) {
  summaryModel = values["summary-model"] ?? model;
  const provider = createOpenAIProvider({
    baseUrl,
    apiKey: process.env["OPENAI_API_KEY"],
    model,
  });
  setup = {
    keptWindows,
    contextWindow,
    summarizer: createLlmSummarizer({ provider, model: summaryModel }),
    summaryModel,
    ask: async (messages: readonly ChatMessage[]) =>
      (
        await collectStream(
          provider.stream({ messages, model, temperature: 0, maxOutputTokens: 200 }),
        )
      ).text,
  };
} else {
  setup = { keptWindows, contextWindow, summarizer: createExtractiveSummarizer() };
}

// Conversations run `concurrency` at a time (each one's calls in order); results keep the
// corpus order.
const outcomes: ConversationOutcome[] = new Array<ConversationOutcome>(corpus.length);
let next = 0;
let done = 0;
const started = Date.now();
await Promise.all(
  Array.from({ length: Math.min(concurrency, corpus.length) }, async () => {
    for (let i = next++; i < corpus.length; i = next++) {
      const conversation = corpus[i];
      if (conversation === undefined) continue;
      outcomes[i] = await evaluateConversation(conversation, setup);
      done++;
      if (setup.ask) console.error(`eval:compaction: ${done}/${corpus.length} ${conversation.id}`);
    }
  }),
);

const report = buildReport(
  {
    mode: setup.ask ? "model" : "offline",
    model: model ?? OFFLINE_MODEL_ID,
    summaryModel,
    contextWindow,
    keptWindows,
  },
  outcomes,
);
const markdown = renderMarkdown(report);
console.log(`## Compaction eval (${((Date.now() - started) / 1000).toFixed(1)} s)\n\n${markdown}`);
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
if (values.markdown !== undefined) writeFileSync(values.markdown, `${markdown}\n`);
