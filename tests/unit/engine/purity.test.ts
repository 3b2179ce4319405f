import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ENGINE = path.resolve(import.meta.dirname, "../../../lib/engine");

describe("the engine is pure", () => {
  it("[R6] lib/engine imports only lib/engine and reads no clock, randomness, timer or network", () => {
    const files = readdirSync(ENGINE).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const source = readFileSync(path.join(ENGINE, file), "utf8");
      const specifiers = [...source.matchAll(/\bfrom\s+"([^"]+)"/g)].map((m) => m[1]);
      for (const specifier of specifiers)
        expect([file, specifier]).toEqual([file, expect.stringMatching(/^\.\/[a-z-]+$/)]);
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      for (const banned of [
        /Date\.now\(/,
        /new Date\(\s*\)/,
        /Math\.random\(/,
        /\bfetch\(/,
        /\bset(Timeout|Interval|Immediate)\(/,
        /\bprocess\./,
      ]) {
        expect([file, banned.test(code)]).toEqual([file, false]);
      }
    }
  });
});
