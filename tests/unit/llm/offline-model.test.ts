import { describe, expect, it } from "vitest";
import { createOfflineModel, describeContext, OFFLINE_MODEL_ID } from "@/lib/llm/offline-model";
import { ProviderError } from "@/lib/llm/provider-error";
import { SUMMARY_PREFIX, summaryMessageContent } from "@/lib/llm/summary-marker";
import { countPromptTokens } from "@/lib/llm/tokens";
import { assistant, drain, drainFailure, system, textOf, user } from "./helpers";

const conversation = [
  system("You are helpful."),
  user("What is a DAG?"),
  assistant("A directed acyclic graph."),
  user("And why does Spindle use one?"),
];

describe("offline model", () => {
  it("is labelled offline model, never as an LLM", async () => {
    const model = createOfflineModel();
    expect(model.kind).toBe("offline");
    expect(model.label).toBe("offline model");
    expect(model.model).toBe(OFFLINE_MODEL_ID);
    const reply = textOf(await drain(model.stream({ messages: conversation })));
    expect(reply).toMatch(/^This is the offline model: no language model is configured/);
    expect(reply).not.toMatch(/\b(AI|LLM|assistant model|language model here)\b/);
    expect(await model.listModels()).toEqual([{ id: "offline model", ownedBy: "spindle" }]);
  });

  it("describes the context: message count by role, no summary, the last user message", async () => {
    const reply = textOf(await drain(createOfflineModel().stream({ messages: conversation })));
    expect(reply).toContain("- Messages in context: 4 (1 system, 2 user, 1 assistant).");
    expect(reply).toContain("- Summary: none; every earlier turn is included verbatim.");
    expect(reply).toContain('- Last user message: "And why does Spindle use one?".');
    expect(reply).toMatch(/- Context used: \d+ of 8,192 tokens\./);
  });

  it("is deterministic: the same context gives the same reply", async () => {
    const model = createOfflineModel();
    const a = textOf(await drain(model.stream({ messages: conversation })));
    const b = textOf(await drain(model.stream({ messages: conversation })));
    expect(a).toBe(b);
    expect(a).toBe(describeContext(conversation, countPromptTokens(conversation), 8192));
  });

  it("says when a summary stands in, quoting the summary's first line", async () => {
    const summary = summaryMessageContent("Goal: ship the provider layer.\n\nUser requests: …");
    const messages = [system("sys"), user(summary), user("continue")];
    const reply = textOf(await drain(createOfflineModel().stream({ messages })));
    expect(summary.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(reply).toContain(
      '- Summary: a summary stands in for earlier turns. Its first line: "Goal: ship the provider layer.".',
    );
    // The summary message is not mistaken for the user's last words.
    expect(reply).toContain('- Last user message: "continue".');
  });

  it("quotes a long last message only up to a limit", () => {
    const long = "word ".repeat(200);
    const reply = describeContext([user(long)], 10, 8192);
    const quoted = /Last user message: "([^"]*)"/.exec(reply)?.[1] ?? "";
    expect(quoted.length).toBeLessThanOrEqual(280);
    expect(quoted.endsWith("…")).toBe(true);
  });

  it("streams word by word, chunks joining back to the reply, then usage and finish", async () => {
    const events = await drain(createOfflineModel().stream({ messages: conversation }));
    const texts = events.filter((e) => e.type === "text");
    expect(texts.length).toBeGreaterThan(20);
    for (const t of texts) expect(t.text).toMatch(/^\S+\s*$/);
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({
      usage: { promptTokens: countPromptTokens(conversation) },
    });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("throws provider_overflow when the prompt exceeds its window", async () => {
    const model = createOfflineModel({ contextWindow: 50 });
    const { error, seen } = await drainFailure(
      model.stream({ messages: [user("token ".repeat(100))] }),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe("provider_overflow");
    expect(error.message).toMatch(/exceeds the offline model's context window of 50 tokens/);
    expect(seen).toEqual([]);
  });

  it("fits a prompt exactly at its window", async () => {
    const messages = [user("just enough")];
    const model = createOfflineModel({ contextWindow: countPromptTokens(messages) });
    const events = await drain(model.stream({ messages }));
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("stops cleanly on abort, mid-stream", async () => {
    const stop = new AbortController();
    const events = [];
    for await (const e of createOfflineModel().stream({
      messages: conversation,
      signal: stop.signal,
    })) {
      events.push(e);
      if (events.length === 3) stop.abort();
    }
    expect(events).toHaveLength(4);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "aborted" });
  });

  it("paces chunks by delayMs, and an abort cuts the wait short", async () => {
    const stop = new AbortController();
    const model = createOfflineModel({ delayMs: 60_000 });
    const events = model.stream({ messages: conversation, signal: stop.signal });
    const iterator = events[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: "text" });
    const pending = iterator.next();
    stop.abort();
    expect((await pending).value).toEqual({ type: "finish", reason: "aborted" });
  });
});
