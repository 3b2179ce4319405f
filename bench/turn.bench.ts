/**
 * [R132] The turn path (issue 10), each figure measured against a baseline in the same run:
 *
 *  P3  time to first token through Spindle (POST .../turns → first `delta`) against the
 *      same upstream called directly with the very request Spindle sent, interleaved; at a
 *      10-node and a 2,000-node spine (retries, so the spine keeps its length). Goals
 *      (issue 19): overhead ≤ 8 ms p50 at 10 nodes; Spindle's own overhead at 2,000 ≤ 1.3×
 *      its overhead at 10 (the upstream's own parse time grows with the prompt and is not
 *      ours to count; the TTFT ratio, which counts it, is printed beside them).
 *      The same overhead against a model that thinks before its first token (THINK_MS, as
 *      every hosted model does): the request goes out while the turn's claim commits
 *      ([R292]), so the claim's time hides behind the model's.
 *      Beside them, the floor measured in the same run: the cost of the app server itself
 *      — a turn refused at the origin check, before any database work — against a plain
 *      request to the upstream.
 *  P5  bytes the database is given (statement parameters) while one reply streams, against
 *      the reply's own text: a 1,000-word reply streamed over ~5 s. Goal ≤ 2×.
 *
 *   npm run build && npx tsx bench/turn.bench.ts
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { median, migrated } from "./measure";
import { startBenchApp, type BenchApp } from "./app";
import { bigLedger } from "../tests/support/big-ledger";
import { behaviours } from "../tests/support/recording-behaviours";
import { startRecordingServer } from "../tests/support/recording-server";

const PORT = Number(process.env["BENCH_PORT"] ?? 3720);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 7);
const RUNS = 10;
/** How long the thinking model takes before its first token. */
const THINK_MS = 25;

/** Milliseconds from sending `init` to `url` until the body holds `marker`; then drains it. */
async function firstMark(url: string, init: RequestInit, marker: RegExp) {
  const t0 = performance.now();
  const res = await fetch(url, init);
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let first = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (first < 0 && marker.test(text)) first = performance.now() - t0;
  }
  if (first < 0) throw new Error(`${url}: no first token in ${text.slice(0, 300)}`);
  return { ms: first, text };
}

interface Lane {
  readonly sessionId: string;
  reply: string;
}

/** One retry of the lane's last reply through Spindle; the new reply becomes the target. */
async function spindleTurn(app: BenchApp, lane: Lane): Promise<number> {
  const { ms, text } = await firstMark(
    `${app.url}/api/sessions/${lane.sessionId}/turns`,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ mode: "retry", targetId: lane.reply }),
    },
    /event: delta/,
  );
  const node = /event: node\ndata: (.*)\n/.exec(text)?.[1];
  if (node === undefined) throw new Error("no node event");
  lane.reply = (JSON.parse(node) as { id: string }).id;
  return ms;
}

/** The request Spindle last sent upstream, sent again straight to the upstream. */
async function directTurn(app: BenchApp): Promise<number> {
  const last = app.upstream.chatRequests.at(-1);
  if (last === undefined) throw new Error("no upstream request yet");
  const { ms } = await firstMark(
    `${app.upstream.url}/chat/completions`,
    { method: "POST", headers: { "content-type": "application/json" }, body: last.rawBody },
    /"content":"[^"]/,
  );
  return ms;
}

async function lane(app: BenchApp, spine: number): Promise<Lane> {
  // An odd spine ends on an assistant reply (ROOT, then user/assistant pairs).
  const file = bigLedger({ total: spine, spine, words: 8, title: `ttft ${spine}` });
  const session = await app.post<{ id: string; headId: string }>("/api/import", file);
  return { sessionId: session.id, reply: session.headId };
}

async function ttftBench(): Promise<void> {
  const app = await startBenchApp(PORT);
  try {
    const short = await lane(app, 11);
    const long = await lane(app, 2001);
    const samples = { short: [] as number[], long: [] as number[], overhead: [] as number[] };
    const longOverhead: number[] = [];
    const ratios: number[] = [];
    const thinking: number[] = [];
    const think = () =>
      app.upstream.enqueue(
        behaviours.reply("Having thought it over, here is the answer.", {
          firstTokenDelayMs: THINK_MS,
        }),
      );
    // Warm-up: the first turns compile nothing, but fill caches and open connections.
    for (let i = 0; i < 3; i++) {
      await spindleTurn(app, short);
      await spindleTurn(app, long);
    }
    for (let r = 0; r < ROUNDS; r++) {
      const roundShort: number[] = [];
      const roundLong: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = await spindleTurn(app, short);
        const ds = await directTurn(app);
        const l = await spindleTurn(app, long);
        const dl = await directTurn(app);
        think();
        const t = await spindleTurn(app, short);
        think();
        const dt = await directTurn(app);
        samples.overhead.push(s - ds);
        longOverhead.push(l - dl);
        thinking.push(t - dt);
        roundShort.push(s);
        roundLong.push(l);
      }
      samples.short.push(...roundShort);
      samples.long.push(...roundLong);
      ratios.push(median(roundLong) / median(roundShort));
    }
    // The floor: the server's own cost of a request that does no work (refused at the
    // origin check, before the database), against the upstream's plain GET.
    const refused = async () => {
      const t0 = performance.now();
      const res = await fetch(`${app.url}/api/sessions/${short.sessionId}/turns`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://elsewhere.example" },
        body: JSON.stringify({ mode: "retry", targetId: short.reply }),
      });
      await res.text();
      if (res.status !== 403) throw new Error(`expected a 403, got ${res.status}`);
      return performance.now() - t0;
    };
    const plain = async () => {
      const t0 = performance.now();
      await (await fetch(`${app.upstream.url}/models`)).text();
      return performance.now() - t0;
    };
    const floor = { app: [] as number[], plain: [] as number[] };
    for (let i = 0; i < 20; i++) await refused();
    for (let i = 0; i < ROUNDS * 30; i++) {
      floor.app.push(await refused());
      floor.plain.push(await plain());
    }
    const f = (x: number) => x.toFixed(1);
    console.log(
      `P3 TTFT overhead over the upstream, 10-node spine: ${f(median(samples.overhead))} ms p50 (goal ≤ 8); 2,000-node spine: ${f(median(longOverhead))} ms`,
    );
    console.log(
      `P3 Spindle's own overhead, 2,000-node vs 10-node spine: ${(median(longOverhead) / median(samples.overhead)).toFixed(2)}× (goal ≤ 1.3)`,
    );
    console.log(
      `P3 TTFT overhead over a model that thinks ${THINK_MS} ms before its first token, 10-node spine: ${f(median(thinking))} ms p50`,
    );
    console.log(
      `P3 floor: a turn refused before any database work ${f(median(floor.app))} ms through the app server, a plain GET to the upstream ${f(median(floor.plain))} ms`,
    );
    console.log(
      `P3 TTFT through Spindle: 10-node spine ${f(median(samples.short))} ms, 2,000-node ${f(median(samples.long))} ms → ${median(ratios).toFixed(2)}× (the upstream's parse included)`,
    );
  } finally {
    await app.stop();
  }
}

/**
 * Counts the bytes of every parameter bound to a statement this process runs on SQLite
 * (better-sqlite3 is the driver under Prisma's adapter): what the database is given.
 */
function countBoundBytes(): { bytes: () => number; reset: () => void } {
  let total = 0;
  const size = (v: unknown): number =>
    typeof v === "string"
      ? Buffer.byteLength(v)
      : Buffer.isBuffer(v)
        ? v.length
        : Array.isArray(v)
          ? v.reduce((a: number, x) => a + size(x), 0)
          : v === null || v === undefined
            ? 0
            : 8;
  const proto = Database.prototype as unknown as {
    prepare: (this: Database.Database, sql: string) => Database.Statement;
  };
  const prepare = proto.prepare;
  proto.prepare = function (this: Database.Database, sql: string) {
    const stmt = prepare.call(this, sql);
    if (!/^\s*(insert|update|delete)/i.test(sql)) return stmt;
    for (const method of ["bind", "run", "get", "all", "iterate"] as const) {
      const original = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
      (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        total += size(args);
        const out = original(...args);
        // `bind` returns the statement, whose `run` then carries no arguments.
        return out === stmt ? stmt : out;
      };
    }
    return stmt;
  };
  return { bytes: () => total, reset: () => (total = 0) };
}

async function bytesBench(): Promise<void> {
  const counter = countBoundBytes();
  const dir = mkdtempSync(path.join(os.tmpdir(), "spindle-bench-p5-"));
  const upstream = await startRecordingServer({ models: ["spindle-test-model"] });
  Object.assign(process.env, {
    DATABASE_URL: await migrated(dir, "p5.db"),
    SPINDLE_AUTH: "off",
    OPENAI_BASE_URL: upstream.url,
    OPENAI_API_KEY: "sk-bench",
    SPINDLE_MODEL: "spindle-test-model",
    SPINDLE_CONTEXT_WINDOW: "1000000",
  });
  const { services, closeServices } = await import("../lib/server/services");
  const { LOCAL_ACTOR } = await import("../lib/auth/actor");
  try {
    const s = await services();
    const workspace = s.workspaceFor(LOCAL_ACTOR);
    const session = await workspace.importLedger(
      bigLedger({ total: 201, spine: 201, words: 40 }) as never,
    );
    const words = Array.from({ length: 1000 }, (_, i) => `word${i % 97}`).join(" ");
    const ratios: number[] = [];
    let statements = "";
    for (let r = 0; r < 3; r++) {
      upstream.enqueue(behaviours.reply(words, { chunkDelayMs: 5 }));
      counter.reset();
      let text = "";
      const turn = s.dispatcher.turn({
        sessionId: session.id,
        mode: "send",
        content: `reply ${r}`,
      });
      for (let step = await turn.next(); !step.done; step = await turn.next()) {
        if (step.value.type === "delta") text += step.value.text;
      }
      const written = counter.bytes();
      ratios.push(written / Buffer.byteLength(text));
      statements = `${(written / 1024).toFixed(1)} KiB for a ${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB reply`;
    }
    console.log(
      `P5 bytes given to the database per streamed reply: ${statements} → ${median(ratios).toFixed(2)}× (goal ≤ 2)`,
    );
  } finally {
    await closeServices();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await ttftBench();
await bytesBench();
