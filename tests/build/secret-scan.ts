/**
 * Walks a build output directory and reports every file that contains a secret, as raw
 * bytes or base64 (a bundler may inline either). Binary-safe: files are searched as bytes.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface ScanResult {
  readonly filesScanned: number;
  /** Paths relative to the scanned root. */
  readonly hits: readonly string[];
}

/** Directories that are build caches, not output anything serves. */
const SKIPPED = new Set(["cache"]);

function* files(root: string, dir: string = root): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === root && SKIPPED.has(entry.name)) continue;
      yield* files(root, full);
    } else if (entry.isFile()) {
      yield full;
    }
  }
}

export function scanForSecret(root: string, secret: string): ScanResult {
  const needles = [Buffer.from(secret), Buffer.from(Buffer.from(secret).toString("base64"))];
  const hits: string[] = [];
  let filesScanned = 0;
  for (const file of files(root)) {
    if (statSync(file).size === 0) continue;
    filesScanned++;
    const bytes = readFileSync(file);
    if (needles.some((n) => bytes.includes(n))) hits.push(path.relative(root, file));
  }
  return { filesScanned, hits };
}
