import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config/env";
import { createProviders, DEFAULT_OPENAI_MODEL } from "@/lib/llm/provider-factory";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";
import { drain, FAST_RETRY, textOf, user } from "./helpers";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const SECRET = "sk-spindle-factory-secret-123";

describe("provider factory", () => {
  it("builds the offline model when no endpoint is configured", async () => {
    const providers = createProviders(parseConfig({ SPINDLE_OFFLINE_DELAY_MS: "0" }));
    expect(providers.chat.kind).toBe("offline");
    expect(providers.summarizer.kind).toBe("extractive");
    expect(providers.describe()).toEqual({
      kind: "offline",
      label: "offline model",
      model: "offline model",
      summaryModel: "offline model",
    });
    const reply = textOf(await drain(providers.chat.stream({ messages: [user("hi")] })));
    expect(reply).toContain('Last user message: "hi"');
  });

  it("gives the offline model SPINDLE_CONTEXT_WINDOW as its window", async () => {
    const providers = createProviders(
      parseConfig({ SPINDLE_CONTEXT_WINDOW: "20", SPINDLE_OFFLINE_DELAY_MS: "0" }),
    );
    await expect(
      drain(providers.chat.stream({ messages: [user("word ".repeat(50))] })),
    ).rejects.toMatchObject({ code: "provider_overflow" });
  });

  it("builds the OpenAI-compatible provider from OPENAI_BASE_URL, with the summary model", async () => {
    const config = parseConfig({
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: SECRET,
      SPINDLE_MODEL: "qwen3:8b",
      SPINDLE_SUMMARY_MODEL: "qwen3:1.7b",
    });
    const providers = createProviders(config, { retry: FAST_RETRY });
    expect(providers.chat.kind).toBe("openai-compatible");
    expect(providers.summarizer.kind).toBe("llm");
    expect(providers.summaryModel).toBe("qwen3:1.7b");
    await drain(providers.chat.stream({ messages: [user("hi")] }));
    await providers.summarizer.summarize({ messages: [user("hi")], budget: 100 });
    const [chat, summary] = server.chatRequests;
    expect(chat?.body?.["model"]).toBe("qwen3:8b");
    expect(summary?.body?.["model"]).toBe("qwen3:1.7b");
    expect(chat?.headers["authorization"]).toBe(`Bearer ${SECRET}`);
  });

  it("falls back to the chat model for summaries, and to a default chat model", () => {
    const config = parseConfig({ OPENAI_BASE_URL: server.url, SPINDLE_MODEL: "llama3.1:8b" });
    expect(createProviders(config).summaryModel).toBe("llama3.1:8b");
    const bare = createProviders(parseConfig({ OPENAI_BASE_URL: server.url }));
    expect(bare.chat.model).toBe(DEFAULT_OPENAI_MODEL);
    expect(bare.summaryModel).toBe(DEFAULT_OPENAI_MODEL);
  });

  it("describe() shows the base URL but never the key, nor credentials in the URL", () => {
    const config = parseConfig({
      OPENAI_BASE_URL: `http://user:${SECRET}@127.0.0.1:${server.port}/v1?api-key=${SECRET}`,
      OPENAI_API_KEY: SECRET,
      SPINDLE_MODEL: "gpt-4o",
    });
    const description = createProviders(config).describe();
    expect(description).toMatchObject({
      kind: "openai-compatible",
      model: "gpt-4o",
      baseUrl: `http://127.0.0.1:${server.port}/v1`,
      label: `gpt-4o via 127.0.0.1:${server.port}`,
    });
    expect(JSON.stringify(description)).not.toContain(SECRET);
  });

  it("an API key alone means api.openai.com", () => {
    const description = createProviders(parseConfig({ OPENAI_API_KEY: SECRET })).describe();
    expect(description.baseUrl).toBe("https://api.openai.com/v1");
    expect(JSON.stringify(description)).not.toContain(SECRET);
  });
});
