/**
 * The recording server as a standalone process, for `npm run fake-openai`, local development
 * against a fake endpoint, and Playwright's webServer. Replies echo the last user message;
 * other processes script it through /_control/{enqueue,requests,reset,interrupt}.
 *
 *   PORT=4010 npx tsx tests/support/recording-server-cli.ts
 *   OPENAI_BASE_URL=http://127.0.0.1:4010/v1 npm run dev
 */
import { startRecordingServer } from "./recording-server";

const port = Number(process.env["PORT"] ?? 4010);
const models = (process.env["RECORDING_SERVER_MODELS"] ?? "spindle-test-model")
  .split(",")
  .map((m) => m.trim())
  .filter((m) => m !== "");

const server = await startRecordingServer({
  port,
  models,
  control: true,
  // Report cached prompt tokens as a caching server would (RECORDING_SERVER_PROMPT_CACHE=1).
  promptCache: process.env["RECORDING_SERVER_PROMPT_CACHE"] === "1",
});
// Playwright's webServer waits for the URL; humans and scripts wait for this line.
console.log(`recording server ready on ${server.url}`);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
