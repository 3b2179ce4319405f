/**
 * The API key never reaches a bundle. Run after `next build` with the canary key set in the
 * build environment:
 *
 *   OPENAI_API_KEY=sk-spindle-canary-4f1e9a npx next build
 *   npm run test:build   (the root config's "build" project)
 *
 * Skips (and says why) when there is no `.next` directory.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanForSecret } from "./secret-scan";

const CANARY = process.env["SPINDLE_CANARY_KEY"] ?? "sk-spindle-canary-4f1e9a";
const NEXT_DIR = path.resolve(
  process.env["SPINDLE_BUILD_DIR"] ?? path.join(import.meta.dirname, "../../.next"),
);

describe("no secrets in the build output", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "spindle-scan-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("the scanner finds a planted key, raw or base64, and skips the cache", () => {
    mkdirSync(path.join(scratch, "static/chunks"), { recursive: true });
    mkdirSync(path.join(scratch, "cache"), { recursive: true });
    writeFileSync(path.join(scratch, "static/chunks/a.js"), `const k="${CANARY}";`);
    writeFileSync(path.join(scratch, "b.js"), `atob("${Buffer.from(CANARY).toString("base64")}")`);
    writeFileSync(path.join(scratch, "clean.js"), "export {}");
    writeFileSync(path.join(scratch, "cache/c.bin"), CANARY);
    const result = scanForSecret(scratch, CANARY);
    expect([...result.hits].sort()).toEqual(["b.js", path.join("static", "chunks", "a.js")]);
    expect(result.filesScanned).toBe(3);
  });

  it(".next (static and server chunks) does not contain the configured API key", (ctx) => {
    if (!existsSync(NEXT_DIR)) {
      ctx.skip(
        `no build output at ${NEXT_DIR}: run \`next build\` first (with OPENAI_API_KEY=${CANARY})`,
      );
    }
    for (const part of ["static", "server"]) {
      expect(existsSync(path.join(NEXT_DIR, part)), `.next/${part} exists`).toBe(true);
    }
    const result = scanForSecret(NEXT_DIR, CANARY);
    expect(result.filesScanned).toBeGreaterThan(0);
    expect(result.hits, `files containing the key: ${result.hits.join(", ")}`).toEqual([]);
  });
});
