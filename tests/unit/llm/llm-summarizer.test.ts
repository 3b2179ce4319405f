import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLlmSummarizer } from "@/lib/llm/llm-summarizer";
import { SUMMARY_PREFIX, summaryMessageContent } from "@/lib/llm/summary-marker";
import { countTokens } from "@/lib/llm/tokens";
import { behaviours } from "../../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";
import { assistant, providerFor, user } from "./helpers";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const slice = [user("Build me a parser for data.csv."), assistant("Done, see parser.ts.")];

function promptOf(index = 0): { system: string; user: string } {
  const messages = server.chatRequests[index]?.body?.["messages"] as { content: string }[];
  return { system: messages[0]?.content ?? "", user: messages[1]?.content ?? "" };
}

describe("LLM summariser", () => {
  it("asks for the structure, the requests verbatim, on the summary model, within the budget", async () => {
    server.enqueue(behaviours.reply("Goal: parse CSV.\n\nNext step: tests."));
    const summarizer = createLlmSummarizer({ provider: providerFor(server), model: "small-model" });
    const text = await summarizer.summarize({ messages: slice, budget: 300 });
    expect(text).toBe("Goal: parse CSV.\n\nNext step: tests.");
    const body = server.chatRequests[0]?.body;
    expect(body).toMatchObject({ model: "small-model", max_tokens: 300, temperature: 0 });
    const prompt = promptOf();
    expect(prompt.system).toMatch(/Keep every user request verbatim/);
    expect(prompt.system).toMatch(/User requests \(verbatim, oldest first\):/);
    expect(prompt.user).toContain("There is no previous summary.");
    expect(prompt.user).toContain("[user]\nBuild me a parser for data.csv.");
    expect(prompt.user).toContain("[assistant]\nDone, see parser.ts.");
    expect(prompt.user).toContain("in at most 300 tokens");
  });

  it("tells the model a previous summary exists and must carry over", async () => {
    server.enqueue(behaviours.reply("Goal: x\n\nNext step: y"));
    const summarizer = createLlmSummarizer({ provider: providerFor(server), model: "m" });
    await summarizer.summarize({
      messages: slice,
      budget: 200,
      previousSummary: "Goal: earlier goal",
    });
    const prompt = promptOf();
    expect(prompt.user).toMatch(
      /A previous summary exists\..*carry over every still-relevant fact/s,
    );
    expect(prompt.user).toContain("keep every user request it lists verbatim");
    expect(prompt.user).toContain("<previous_summary>\nGoal: earlier goal\n</previous_summary>");
  });

  it("finds the previous summary among the covered messages, and does not list it as a turn", async () => {
    server.enqueue(behaviours.reply("Goal: x\n\nNext step: y"));
    const summarizer = createLlmSummarizer({ provider: providerFor(server), model: "m" });
    await summarizer.summarize({
      messages: [user(summaryMessageContent("Goal: carried")), ...slice],
      budget: 200,
    });
    const prompt = promptOf();
    expect(prompt.user).toContain("<previous_summary>\nGoal: carried\n</previous_summary>");
    expect(prompt.user).not.toContain(SUMMARY_PREFIX.trim());
  });

  it("cuts a reply that overshoots the budget", async () => {
    server.enqueue(behaviours.reply("word ".repeat(400)));
    const summarizer = createLlmSummarizer({ provider: providerFor(server), model: "m" });
    const text = await summarizer.summarize({ messages: slice, budget: 50 });
    expect(countTokens(text)).toBeLessThanOrEqual(50);
  });

  it("fails with provider_error on an empty reply, and passes provider errors through", async () => {
    const summarizer = createLlmSummarizer({
      provider: providerFor(server, { retry: { maxRetries: 0 } }),
      model: "m",
    });
    server.enqueue(behaviours.reply(""));
    await expect(summarizer.summarize({ messages: slice, budget: 50 })).rejects.toMatchObject({
      code: "provider_error",
    });
    server.enqueue(behaviours.overflow("vllm"));
    await expect(summarizer.summarize({ messages: slice, budget: 50 })).rejects.toMatchObject({
      code: "provider_overflow",
    });
  });

  it("an abort rejects with code aborted", async () => {
    server.enqueue(behaviours.hang());
    const stop = new AbortController();
    const summarizer = createLlmSummarizer({ provider: providerFor(server), model: "m" });
    const pending = summarizer.summarize({ messages: slice, budget: 50, signal: stop.signal });
    await server.waitForChatRequest(1);
    stop.abort();
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
  });
});
