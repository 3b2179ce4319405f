/**
 * The production app for the end-to-end benchmarks: `next build`'s output served by
 * scripts/serve.ts on a fresh SQLite file, single-user, against an OpenAI-protocol
 * recording server run in this process (so the benchmark sees what the app asked upstream).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startRecordingServer, type RecordingServer } from "../tests/support/recording-server";

export interface BenchApp {
  readonly url: string;
  readonly upstream: RecordingServer;
  /** POSTs JSON to the app; the parsed answer (throws on a non-2xx status). */
  post<T>(route: string, body: unknown): Promise<T>;
  get<T>(route: string): Promise<T>;
  stop(): Promise<void>;
}

/** Builds the app unless a production build is already there. */
export function ensureBuild(): void {
  if (existsSync(".next/BUILD_ID")) return;
  console.log("no production build: running `next build` first…");
  const built = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("next build failed");
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

export async function startBenchApp(
  port: number,
  env: Record<string, string> = {},
): Promise<BenchApp> {
  ensureBuild();
  const dir = mkdtempSync(path.join(os.tmpdir(), "spindle-bench-app-"));
  const upstream = await startRecordingServer({ models: ["spindle-test-model"] });
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
    NODE_ENV: "production" as const,
    DATABASE_URL: `file:${path.join(dir, "bench.db")}`,
    PORT: String(port),
    SPINDLE_AUTH: "off",
    SPINDLE_MAX_IMPORT_NODES: "200000",
    SPINDLE_MAX_IMPORT_BYTES: String(256 * 1024 * 1024),
    OPENAI_BASE_URL: upstream.url,
    OPENAI_API_KEY: "sk-bench",
    SPINDLE_MODEL: "spindle-test-model",
    // Big benchmark sessions must not trip auto-compaction (the model's window is unknown).
    SPINDLE_CONTEXT_WINDOW: "1000000",
    ...env,
  };
  const migrated = spawnSync("npx", ["tsx", "scripts/migrate.ts", "deploy"], {
    env: appEnv,
    stdio: "inherit",
  });
  if (migrated.status !== 0) throw new Error("migrations failed");
  const child = spawn("npx", ["tsx", "scripts/serve.ts"], {
    env: appEnv,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, child);
  const call = async <T>(route: string, init?: RequestInit): Promise<T> => {
    const res = await fetch(`${url}${route}`, init);
    if (!res.ok) throw new Error(`${route}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  };
  return {
    url,
    upstream,
    get: (route) => call(route),
    post: (route, body) =>
      call(route, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    stop: async () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
