/** What every benchmark here shares: timing, interleaved pairs, a migrated SQLite file. */
import path from "node:path";
import { applyMigrations, migrationFactory } from "../scripts/schema-engine";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Median wall time of `fn` in microseconds over `runs` calls, after a warm-up. */
export async function time(fn: () => unknown, runs: number): Promise<number> {
  for (let i = 0; i < Math.min(20, runs); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1_000);
  }
  return median(samples);
}

export interface Pair {
  readonly a: number;
  readonly b: number;
  /** Median over rounds of a/b measured back to back: drift in machine load cancels out. */
  readonly ratio: number;
}

/** Measures `a` and `b` alternately, `rounds` times, so both see the same machine. */
export async function interleaved(
  a: () => unknown,
  b: () => unknown,
  runs: number,
  rounds = 7,
): Promise<Pair> {
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const ta = await time(a, runs);
    const tb = await time(b, runs);
    as.push(ta);
    bs.push(tb);
    ratios.push(ta / tb);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

/** A new SQLite file in `dir` with every migration applied; its `file:` URL. */
export async function migrated(dir: string, name: string): Promise<string> {
  const url = `file:${path.join(dir, name)}`;
  await applyMigrations({
    schemaPath: "prisma/schema.prisma",
    migrationsDir: "prisma/migrations",
    factory: migrationFactory(url),
  });
  return url;
}
