import { describe, expect, it } from "vitest";
import {
  createExtractiveSummarizer,
  extractSummary,
  fitToBudget,
} from "@/lib/llm/extractive-summarizer";
import { parseSummary, renderSummary } from "@/lib/llm/summary-document";
import { SUMMARY_PREFIX, summaryMessageContent } from "@/lib/llm/summary-marker";
import { countTokens } from "@/lib/llm/tokens";
import type { ChatMessage } from "@/lib/llm/types";
import { assistant, system, user } from "./helpers";

const slice: ChatMessage[] = [
  system("You are a helpful assistant."),
  user(
    "I want to build a CLI that converts CSV files to JSON. Can you help me start with data.csv?",
  ),
  assistant(
    'Sure. We\'ll use Node 20 and the csv-parse package.\n\n```ts\nimport { parse } from "csv-parse";\n```\n' +
      "See https://csv.js.org/parse/ for details. It handles 10,000 rows in 1.5 s.",
  ),
  user("Great. How do I handle quoted fields?\nAlso, what about BOMs?"),
  assistant(
    "Quoted fields are handled by the `quote` option. Next I will add a --pretty flag in src/cli.ts.",
  ),
];

const summarize = (messages: readonly ChatMessage[], budget = 2000, previousSummary?: string) =>
  createExtractiveSummarizer().summarize({
    messages,
    budget,
    ...(previousSummary === undefined ? {} : { previousSummary }),
  });

describe("extractive summariser", () => {
  it("has the fixed structure, in order", async () => {
    const text = await summarize(slice);
    const headings = [
      "Goal: ",
      "User requests (verbatim, oldest first):",
      "Decisions and key facts:",
      "Artifacts:",
      "Open questions:",
      "Next step: ",
    ];
    const positions = headings.map((h) => text.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text.startsWith("Goal: I want to build a CLI that converts CSV files to JSON.")).toBe(
      true,
    );
  });

  it("keeps every user request verbatim (multi-line ones too)", async () => {
    const text = await summarize(slice);
    const doc = parseSummary(text);
    expect(doc.requests).toEqual([slice[1]?.content, slice[3]?.content]);
  });

  it("keeps the first sentence of each assistant turn (joining a bare 'Sure.')", async () => {
    const doc = parseSummary(await summarize(slice));
    expect(doc.facts).toEqual([
      "Sure. We'll use Node 20 and the csv-parse package.",
      "Quoted fields are handled by the quote option.",
    ]);
  });

  it("lists code first lines, file names, numbers and URLs", async () => {
    const doc = parseSummary(await summarize(slice));
    expect(doc.artifacts).toEqual([
      { kind: "code", value: '(ts) import { parse } from "csv-parse";' },
      { kind: "file", value: "data.csv" },
      { kind: "file", value: "src/cli.ts" },
      { kind: "number", value: "20" },
      { kind: "number", value: "10,000" },
      { kind: "number", value: "1.5 s" },
      { kind: "url", value: "https://csv.js.org/parse/" },
    ]);
  });

  it("lists only unanswered questions as open", async () => {
    const doc = parseSummary(await summarize(slice));
    // The quoted-fields question was answered; BOMs never came up again.
    expect(doc.openQuestions).toEqual(["Also, what about BOMs?"]);
  });

  it("takes the next step from the last assistant turn's stated intent", async () => {
    const doc = parseSummary(await summarize(slice));
    expect(doc.nextStep).toBe("Next I will add a --pretty flag in src/cli.ts.");
  });

  it("when the slice ends on a user turn, the next step is to answer it", async () => {
    const doc = parseSummary(await summarize([user("Please write the README.")]));
    expect(doc.nextStep).toBe("Answer the latest request: Please write the README.");
  });

  it("carries the previous summary forward: its requests first, then the new ones", async () => {
    const first = await summarize(slice);
    const second = await summarize(
      [user("Now add YAML output too."), assistant("Done: added YAML via js-yaml in src/yaml.ts.")],
      2000,
      first,
    );
    const doc = parseSummary(second);
    expect(doc.goal).toBe("I want to build a CLI that converts CSV files to JSON.");
    expect(doc.requests).toEqual([
      slice[1]?.content,
      slice[3]?.content,
      "Now add YAML output too.",
    ]);
    expect(doc.facts).toContain("Sure. We'll use Node 20 and the csv-parse package.");
    expect(doc.facts).toContain("Done: added YAML via js-yaml in src/yaml.ts.");
    expect(doc.artifacts).toContainEqual({ kind: "url", value: "https://csv.js.org/parse/" });
    expect(doc.artifacts).toContainEqual({ kind: "file", value: "src/yaml.ts" });
    expect(doc.openQuestions).toEqual(["Also, what about BOMs?"]);
  });

  it("reads a previous summary that arrives as a summary message in the slice", async () => {
    const first = await summarize(slice);
    const second = await summarize([user(summaryMessageContent(first)), user("Next: tests.")]);
    expect(parseSummary(second).requests).toEqual([
      slice[1]?.content,
      slice[3]?.content,
      "Next: tests.",
    ]);
    // The summary message itself is not a request.
    expect(second).not.toContain(SUMMARY_PREFIX.trim());
  });

  it("drops an open question once a later turn answers it", async () => {
    const first = await summarize(slice);
    const second = await summarize(
      [user("ok"), assistant("BOMs are stripped with the bom option of csv-parse.")],
      2000,
      first,
    );
    expect(parseSummary(second).openQuestions).toEqual([]);
  });

  it("keeps a previous summary in another format whole, as the earlier summary", async () => {
    const llmWritten = "The user is building a CSV tool. They prefer TypeScript.";
    const doc = parseSummary(await summarize([user("Continue.")], 2000, llmWritten));
    expect(doc.earlier).toBe(llmWritten);
    expect(doc.requests).toEqual(["Continue."]);
  });

  it("respects the budget, cutting the longest request with a visible marker", async () => {
    const long = `Here is my log:\n${"line of the log with details\n".repeat(200)}END`;
    const messages = [user("Short request one."), assistant("Ok."), user(long), assistant("Seen.")];
    const text = await summarize(messages, 300);
    expect(countTokens(text)).toBeLessThanOrEqual(300);
    const doc = parseSummary(text);
    expect(doc.requests[0]).toBe("Short request one.");
    expect(doc.requests[1]).toMatch(/^Here is my log:\nline of the log/);
    expect(doc.requests[1]).toMatch(/\[…truncated: \d+ of \d+ tokens omitted\]$/);
  });

  it("does not cut anything when the budget allows it", async () => {
    const doc = extractSummary(slice);
    expect(fitToBudget(doc, 10_000)).toBe(renderSummary(doc));
  });

  it("stays within every budget, down to tiny ones", () => {
    const doc = extractSummary([...slice, user("x ".repeat(800))]);
    for (const budget of [2000, 400, 150, 80, 40, 10]) {
      expect(countTokens(fitToBudget(doc, budget))).toBeLessThanOrEqual(budget);
    }
  });

  it("counts requests dropped whole, and carries the count forward", async () => {
    const many = Array.from({ length: 40 }, (_, i) => [
      user(`Request number ${i} with a few words of detail about item ${i}.`),
      assistant(`Handled ${i}.`),
    ]).flat();
    const text = await summarize(many, 200);
    const doc = parseSummary(text);
    expect(countTokens(text)).toBeLessThanOrEqual(200);
    expect(doc.omittedRequests).toBeGreaterThan(0);
    expect(doc.omittedRequests + doc.requests.length).toBe(40);
    // The newest requests are the ones kept.
    expect(doc.requests.at(-1)).toBe("Request number 39 with a few words of detail about item 39.");
    const again = parseSummary(await summarize([user("One more.")], 200, text));
    expect(again.omittedRequests).toBeGreaterThanOrEqual(doc.omittedRequests);
  });

  it("is deterministic", async () => {
    expect(await summarize(slice, 120)).toBe(await summarize(slice, 120));
  });
});
