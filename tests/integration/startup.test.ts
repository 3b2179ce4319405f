import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

/** What `npm start` does first (scripts/migrate.ts parses the configuration). */
function start(env: Record<string, string>) {
  return spawnSync("npx", ["tsx", "scripts/migrate.ts", "status"], {
    env: { ...process.env, DATABASE_URL: "file:./data/never-created.db", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

it("[R80] SPINDLE_AUTH=off with HOST=0.0.0.0 refuses to start with one clear line", () => {
  const r = start({ SPINDLE_AUTH: "off", HOST: "0.0.0.0" });
  expect(r.status).toBe(1);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^spindle: configuration error: SPINDLE_AUTH is "off" .* HOST is "0\.0\.0\.0".*loopback/,
  );
});
