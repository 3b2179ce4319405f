// Prints one plain "N passed, N failed" line per test runner from a test-command log, so CI
// shows the totals whichever runner produced them (Vitest's and Playwright's own summaries
// are in the log above it).
import { readFileSync } from "node:fs";

// eslint-disable-next-line no-control-regex
const log = readFileSync(process.argv[2] ?? 0, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
let vitest = { passed: 0, failed: 0, skipped: 0, runs: 0 };
let playwright = { passed: 0, failed: 0, skipped: 0, runs: 0 };

for (const line of log.split("\n")) {
  const v = /^\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (v) {
    vitest.runs++;
    vitest.passed += Number(/(\d+) passed/.exec(v[1])?.[1] ?? 0);
    vitest.failed += Number(/(\d+) failed/.exec(v[1])?.[1] ?? 0);
    vitest.skipped += Number(/(\d+) skipped/.exec(v[1])?.[1] ?? 0);
    continue;
  }
  const p =
    /^\s*(\d+) (passed|failed|skipped|flaky|did not run)(?: \([\d.]+(?:ms|s|m|h)\))?\s*$/.exec(
      line,
    );
  if (p) {
    playwright.runs++;
    const n = Number(p[1]);
    if (p[2] === "passed") playwright.passed += n;
    else if (p[2] === "skipped" || p[2] === "did not run") playwright.skipped += n;
    else playwright.failed += n;
  }
}

const fmt = (r) =>
  `${r.passed} passed, ${r.failed} failed` + (r.skipped ? `, ${r.skipped} skipped` : "");
if (vitest.runs) console.log(`vitest: ${fmt(vitest)}`);
if (playwright.runs) console.log(`playwright: ${fmt(playwright)}`);
if (!vitest.runs && !playwright.runs) console.log("no test runner summary found");
