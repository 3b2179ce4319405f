import { defineConfig, devices } from "@playwright/test";
import { ADMIN_STATE } from "./e2e/support/admin";
import { AGENT_PORT, FAKE_OPENAI_URL, PORT } from "./e2e/support/servers";

// The app under test: the production build on a fresh SQLite file, offline model, no
// streaming delay worth waiting for. Playwright's own browser download cannot run here, so
// Debian's Chromium is driven instead (stack.md).
const appEnv = {
  NEXT_TELEMETRY_DISABLED: "1",
  CHECKPOINT_DISABLE: "1",
  DATABASE_URL: process.env["E2E_DATABASE_URL"] ?? "file:./data/e2e.db",
  SPINDLE_OFFLINE_DELAY_MS: "5",
  PORT: String(PORT),
};

const chromium = {
  ...devices["Desktop Chrome"],
  viewport: { width: 1400, height: 900 },
  launchOptions: {
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  // How long a flow and an assertion may wait, not measures of speed: two flows share two
  // cores with their servers and browsers, where a streamed reply can take longer than
  // Playwright's default 5 s to settle and a long flow longer than 30 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  // Two workers, one per project at most: the agent flows (their own server and the
  // scripted OpenAI-protocol server, whose script is one queue) run beside the
  // offline-model flows (their own server and database), never two flows of one project at
  // once — a project's flows share its server's state and, in the agent's case, its script.
  workers: 2,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A failed flow keeps its trace's DOM snapshots, network and console, not the
    // screencast: recording every frame of every flow cost about a fifth of the suite's
    // time on two cores (the failure's own screenshot is still taken).
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
  },
  projects: [
    {
      // First run of a fresh server: the admin signs up, a second account is made; the
      // admin's sign-in is saved for the other flows.
      name: "accounts",
      testMatch: /accounts\.spec\.ts/,
      workers: 1,
      use: chromium,
    },
    {
      // The agent loop and rendered replies against a scripted OpenAI-protocol server, in
      // single-user mode.
      name: "agent",
      workers: 1,
      testMatch: /(agent|markdown|reading|models|replay|attachments)\.spec\.ts/,
      use: { ...chromium, baseURL: `http://127.0.0.1:${AGENT_PORT}` },
    },
    {
      name: "debian-chromium",
      testIgnore: /(accounts|agent|markdown|reading|models|replay|attachments)\.spec\.ts/,
      dependencies: ["accounts"],
      workers: 1,
      use: { ...chromium, storageState: ADMIN_STATE },
    },
  ],
  webServer: [
    {
      command: `rm -f data/e2e.db data/e2e.db-wal data/e2e.db-shm && npx tsx scripts/migrate.ts deploy && npx tsx scripts/serve.ts`,
      env: appEnv,
      url: `http://127.0.0.1:${PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      command: "npx tsx tests/support/recording-server-cli.ts",
      // Two models, for the model picker and "Retry with…" (issue 21).
      env: {
        PORT: new URL(FAKE_OPENAI_URL).port,
        RECORDING_SERVER_MODELS: "spindle-test-model,spindle-other-model",
      },
      url: `${FAKE_OPENAI_URL}/v1/models`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `rm -f data/e2e-agent.db data/e2e-agent.db-wal data/e2e-agent.db-shm && npx tsx scripts/migrate.ts deploy && npx tsx scripts/serve.ts`,
      env: {
        ...appEnv,
        DATABASE_URL: "file:./data/e2e-agent.db",
        PORT: String(AGENT_PORT),
        SPINDLE_AUTH: "off",
        OPENAI_BASE_URL: `${FAKE_OPENAI_URL}/v1`,
        SPINDLE_MODEL: "spindle-test-model",
        // Under the 10 MiB default, so the attachment flow sees the page follow the server.
        SPINDLE_MAX_ATTACHMENT_BYTES: "1000000",
      },
      url: `http://127.0.0.1:${AGENT_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
});
