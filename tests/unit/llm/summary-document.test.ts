import { describe, expect, it } from "vitest";
import { parseSummary, renderSummary, type SummaryDocument } from "@/lib/llm/summary-document";
import { SUMMARY_PREFIX, summaryMessageContent, summaryTextOf } from "@/lib/llm/summary-marker";

const doc: SummaryDocument = {
  goal: "Ship it.",
  requests: [
    "First request.",
    "A request\n- with a list line\n\nand a blank line",
    "Decisions and key facts:",
  ],
  omittedRequests: 2,
  facts: ["Chose SQLite."],
  artifacts: [
    { kind: "code", value: "const a = 1;" },
    { kind: "file", value: "a.ts" },
    { kind: "file", value: "b.ts" },
    { kind: "number", value: "42" },
    { kind: "url", value: "https://example.com/x" },
  ],
  openQuestions: ["Why?"],
  nextStep: "Write tests.",
  earlier: "An LLM-written summary\nwith two lines.",
};

describe("summary document", () => {
  it("round-trips through text, including requests that look like structure", () => {
    expect(parseSummary(renderSummary(doc))).toEqual(doc);
  });

  it("reads foreign text as an earlier summary", () => {
    expect(parseSummary("Just some prose.")).toMatchObject({
      earlier: "Just some prose.",
      requests: [],
    });
  });
});

describe("summary marker", () => {
  it("wraps and unwraps summary text", () => {
    const content = summaryMessageContent("Goal: x");
    expect(content.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summaryTextOf(content)).toBe("Goal: x");
    expect(summaryTextOf("Goal: x")).toBeUndefined();
  });
});
