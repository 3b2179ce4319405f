import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures/boundaries");

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT });
  // Loading the configuration and its plugins is the slow part: once, here.
  await eslint.lintText("", { filePath: path.join(ROOT, "lib/engine/warm-up.ts") });
}, 60_000);

/** The boundary errors of `fixture` linted as if it were the file at `as`. */
async function boundaryErrors(fixture: string, as: string): Promise<Linter.LintMessage[]> {
  const code = readFileSync(path.join(FIXTURES, fixture), "utf8");
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, as) });
  return (result?.messages ?? []).filter(
    (m) =>
      m.ruleId === "no-restricted-imports" ||
      m.ruleId === "no-restricted-syntax" ||
      m.ruleId === "no-restricted-globals",
  );
}

/** Expects exactly one boundary error, whose message contains `says`. */
async function refused(fixture: string, as: string, says: string): Promise<void> {
  const errors = await boundaryErrors(fixture, as);
  expect(errors.map((e) => [e.severity, e.message])).toEqual([[2, expect.stringContaining(says)]]);
}

async function allowed(fixture: string, as: string): Promise<void> {
  expect(await boundaryErrors(fixture, as)).toEqual([]);
}

describe("boundaries are lint errors", () => {
  it("[R6] lib/engine imports only lib/engine and reads no clock, randomness, timer, network or environment", async () => {
    const only = "lib/engine imports only lib/engine";
    await refused("imports-store.ts", "lib/engine/fixture.ts", only);
    await refused("imports-store-by-alias.ts", "lib/engine/fixture.ts", only);
    await refused("imports-framework.ts", "lib/engine/fixture.ts", only);
    await refused("imports-prisma.ts", "lib/engine/fixture.ts", only);
    await refused("reads-clock.ts", "lib/engine/fixture.ts", "takes time as an argument");
    await refused("reads-environment.ts", "lib/engine/fixture.ts", "reads no environment");
    // The same code is no engine error elsewhere: the rule is the layer's, not the code's.
    await allowed("reads-clock.ts", "lib/dispatcher/fixture.ts");
  });

  it("[R62] only lib/store and lib/db reach the database client", async () => {
    for (const as of [
      "lib/dispatcher/fixture.ts",
      "lib/compaction/fixture.ts",
      "lib/http/fixture.ts",
      "app/api/fixture/route.ts",
      "components/chat/fixture.tsx",
    ]) {
      await refused("imports-prisma.ts", as, "Only lib/store and lib/db reach the database");
    }
    await allowed("imports-prisma.ts", "lib/store/fixture.ts");
    await allowed("imports-prisma.ts", "lib/db/fixture.ts");
  });

  it("[R62] HEAD moves only through Dispatcher.moveHead, and a turn's writes only through the TurnWriter", async () => {
    await refused("sets-head.ts", "lib/dispatcher/dispatcher.ts", "Dispatcher.moveHead");
    await refused("sets-head.ts", "lib/dispatcher/workspace.ts", "Dispatcher.moveHead");
    await refused("sets-head.ts", "lib/dispatcher/turn-writer.ts", "Dispatcher.moveHead");
    await refused("sets-head.ts", "app/api/fixture/route.ts", "Dispatcher.moveHead");
    await refused("appends.ts", "lib/dispatcher/run-turn.ts", "through the TurnWriter");
    await refused("appends.ts", "lib/server/fixture.ts", "through the TurnWriter");
    // The turn writer, and compaction's one head-neutral summary insert, do append.
    await allowed("appends.ts", "lib/dispatcher/turn-writer.ts");
    await allowed("appends.ts", "lib/compaction/compactor.ts");
  });

  it("[R62] inside the store only the HEAD rules' own methods write headId", async () => {
    await refused("writes-head.ts", "lib/store/session-store.ts", "write headId");
    // The parts of the store that are not HEAD's module write no HEAD whatever the method.
    await refused("writes-head.ts", "lib/store/stream-leases.ts", "write headId");
    await refused("writes-head.ts", "lib/store/ledger-writes.ts", "write headId");
  });

  it("[R160] consumers take the store's narrow interfaces; only the composition root holds it whole", async () => {
    const narrow = "Take the store's narrow interfaces";
    for (const as of [
      "lib/dispatcher/fixture.ts",
      "lib/compaction/fixture.ts",
      "lib/view/fixture.ts",
      "lib/audit/fixture.ts",
      "lib/auth/fixture.ts",
    ]) {
      await refused("imports-whole-store.ts", as, narrow);
    }
    await allowed("imports-whole-store.ts", "lib/server/services.ts");
    await allowed("imports-store.ts", "lib/dispatcher/fixture.ts");
  });

  it("[R160] the layers point inward: store, view, compaction, portability and the UI stay in theirs", async () => {
    // The store knows no turn, no compaction, no portability.
    await refused("imports-dispatcher.ts", "lib/store/fixture.ts", "The store knows no turn");
    await refused(
      "imports-portability.ts",
      "lib/store/fixture.ts",
      "share types through lib/engine",
    );
    // Compaction takes ports; it never imports the dispatcher. Neither does the view.
    await refused(
      "imports-dispatcher.ts",
      "lib/compaction/fixture.ts",
      "never imports the dispatcher",
    );
    await refused("imports-dispatcher.ts", "lib/view/fixture.ts", "is a layer above");
    await refused(
      "imports-dispatcher.ts",
      "lib/audit/fixture.ts",
      "The audit never imports the dispatcher",
    );
    // Portability plans, the store writes.
    await refused("imports-store.ts", "lib/portability/fixture.ts", "Portability plans");
    // The other edges never read the database.
    await refused("imports-store.ts", "lib/llm/fixture.ts", "Only the store reads the database");
    // Browser code never sees the store, the database or the providers.
    const ui = "Components never import lib/store, lib/db, lib/llm";
    await refused("imports-store-by-alias.ts", "components/home/fixture.tsx", ui);
    await refused("imports-db.ts", "components/home/fixture.tsx", ui);
    await refused("imports-llm.ts", "components/chat/fixture.ts", ui);
    // Routes call the workspace, never the store.
    await refused(
      "imports-store-by-alias.ts",
      "app/api/sessions/route.ts",
      "never import the store",
    );
    // lib/ never reaches up into the UI.
    await refused(
      "imports-components.ts",
      "lib/dispatcher/fixture.ts",
      "never imports from components",
    );
    // Inward imports are allowed.
    await allowed("imports-store.ts", "lib/dispatcher/fixture.ts");
    await allowed("imports-store.ts", "lib/compaction/fixture.ts");
    await allowed("imports-llm.ts", "app/api/models/route.ts");
  });

  it("[R149] every browser flow takes `test` from the CSP guard, not straight from Playwright", async () => {
    await refused("imports-playwright-test.ts", "e2e/fixture.spec.ts", "./support/test");
    await allowed("imports-guarded-test.ts", "e2e/fixture.spec.ts");
    // Support modules build the guard from Playwright's own `test`.
    await allowed("imports-playwright-test.ts", "e2e/support/fixture.ts");
  });
});
