/**
 * Tokenizer throughput: gpt-tokenizer (what Spindle counts with) against js-tiktoken as the
 * baseline, both on o200k and on the same ~1 MB of generated text (prose, code, numbers,
 * a little non-Latin script) in the same process, so the ratio is free of machine noise.
 *
 *   npx tsx bench/tokenizer.bench.ts
 */
import { Tiktoken } from "js-tiktoken/lite";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { encode as gptEncode } from "gpt-tokenizer/encoding/o200k_base";
import os from "node:os";
import { pathToFileURL } from "node:url";

/** Deterministic PRNG (mulberry32) so every run tokenises the same text. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the conversation branch summary context window model token graph node retry edit " +
  "compaction provider stream server request response reply message user assistant tool " +
  "because however therefore although which while where every never always quickly " +
  "carefully deterministic append-only acyclic directed capsule provenance rendering"
).split(" ");

const CODE = [
  "export function renderContext(head: NodeId, index: LedgerIndex): Rendering {",
  '  const spine = spineOf(head, index).filter((n) => n.kind !== "notice");',
  "  for (let i = 0; i < spine.length; i++) total += spine[i]!.tokenCount + 4;",
  "  return { ids: spine.map((n) => n.id), messages, tokens: tokens(total) };",
  "}",
  "SELECT id, kind, content FROM Node WHERE sessionId = $1 ORDER BY seq;",
  "def summarize(messages, budget=2048):\n    return '\\n'.join(m['content'][:80] for m in messages)",
];

const OTHER = [
  "日本語のテキストも少し含まれます。",
  "Ünïcödé façade — naïve café.",
  "Привет, мир!",
  "🎉 ✅ ⚠️",
];

/** About `bytes` of mixed text. */
export function generateText(bytes: number, seed = 42): string {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const r = random();
    let part: string;
    if (r < 0.6) {
      const n = 8 + Math.floor(random() * 20);
      const words = Array.from({ length: n }, () => pick(WORDS));
      part = `${words.join(" ")}. `;
      part = part[0]?.toUpperCase() + part.slice(1);
    } else if (r < 0.85) {
      part = `\n\`\`\`ts\n${pick(CODE)}\n\`\`\`\n`;
    } else if (r < 0.95) {
      const n = Math.floor(random() * 1e7);
      part = `${n} tokens, ${(random() * 100).toFixed(2)}% at ${n % 24}:${String(n % 60).padStart(2, "0")}, `;
    } else {
      part = `${pick(OTHER)} `;
    }
    parts.push(part);
    size += Buffer.byteLength(part);
  }
  return parts.join("");
}

interface Measurement {
  readonly name: string;
  readonly tokens: number;
  readonly medianMs: number;
  readonly tokensPerSecond: number;
}

function measure(
  name: string,
  encode: (text: string) => number[],
  text: string,
  runs: number,
): Measurement {
  const tokens = encode(text).length; // warm-up, and the count to compare
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    encode(text);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)] ?? 0;
  return { name, tokens, medianMs, tokensPerSecond: tokens / (medianMs / 1000) };
}

export function runTokenizerBench(runs = 7): string {
  const text = generateText(1_000_000);
  const tiktoken = new Tiktoken(o200kRanks);
  const gpt = measure("gpt-tokenizer 4.0.0 (o200k)", (t) => gptEncode(t), text, runs);
  const base = measure("js-tiktoken 1.0.21 (o200k)", (t) => tiktoken.encode(t), text, runs);
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  const lines = [
    `Tokenizer benchmark — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
      `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"})`,
    `input: ${fmt(Buffer.byteLength(text))} bytes of generated prose, code, numbers and non-Latin text; median of ${runs} runs`,
    ...[gpt, base].map(
      (m) =>
        `${m.name.padEnd(30)} ${fmt(m.tokens).padStart(9)} tokens  ${m.medianMs.toFixed(0).padStart(5)} ms  ${fmt(m.tokensPerSecond).padStart(10)} tokens/s`,
    ),
    `ratio gpt-tokenizer / js-tiktoken: ${(gpt.tokensPerSecond / base.tokensPerSecond).toFixed(2)}×` +
      (gpt.tokens === base.tokens
        ? " (identical token counts)"
        : ` (token counts differ: ${gpt.tokens} vs ${base.tokens})`),
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(runTokenizerBench());
}
