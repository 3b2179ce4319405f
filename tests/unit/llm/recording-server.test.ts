import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { behaviours } from "../../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";

let server: RecordingServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startRecordingServer({ models: ["a-model", "b-model"], control: true });
  client = new OpenAI({ baseURL: server.url, apiKey: "sk-x", maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("recording server (driven by the SDK directly)", () => {
  it("binds to 127.0.0.1 on a random port", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it("answers non-streaming requests with a chat.completion and usage", async () => {
    server.enqueue(behaviours.reply("plain answer"));
    const completion = await client.chat.completions.create({
      model: "a-model",
      messages: [{ role: "user", content: "hi there" }],
    });
    expect(completion.choices[0]?.message.content).toBe("plain answer");
    expect(completion.usage).toEqual({ prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 });
  });

  it("answers non-streaming tool calls", async () => {
    server.enqueue(behaviours.toolCalls([{ id: "c1", name: "f", arguments: "{}" }]));
    const completion = await client.chat.completions.create({
      model: "a-model",
      messages: [{ role: "user", content: "call f" }],
    });
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
    ]);
  });

  it("sends the usage chunk only when asked for", async () => {
    const collect = async (includeUsage: boolean) => {
      const stream = await client.chat.completions.create({
        model: "a-model",
        messages: [{ role: "user", content: "x" }],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const chunks = [];
      for await (const c of stream) chunks.push(c);
      return chunks;
    };
    expect((await collect(true)).some((c) => c.usage)).toBe(true);
    expect((await collect(false)).some((c) => c.usage)).toBe(false);
  });

  it("lists models and records every request with headers and parsed body", async () => {
    const models = [];
    for await (const m of client.models.list()) models.push(m.id);
    expect(models).toEqual(["a-model", "b-model"]);
    await client.chat.completions.create({
      model: "b-model",
      messages: [{ role: "user", content: "q" }],
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/models",
      "POST /v1/chat/completions",
    ]);
    const chat = server.chatRequests[0];
    expect(chat?.headers["authorization"]).toBe("Bearer sk-x");
    expect(chat?.headers["content-type"]).toBe("application/json");
    expect(chat?.body).toEqual({ model: "b-model", messages: [{ role: "user", content: "q" }] });
    expect(await chat?.outcome).toBe("completed");
  });

  it("queues behaviours in order, then falls back to the echo", async () => {
    server.enqueue(behaviours.reply("one"), behaviours.reply("two"));
    const ask = async () =>
      (
        await client.chat.completions.create({
          model: "m",
          messages: [{ role: "user", content: "echo me" }],
        })
      ).choices[0]?.message.content;
    expect([await ask(), await ask(), await ask()]).toEqual(["one", "two", "You said: echo me"]);
  });

  it("answers unknown paths with a JSON 404", async () => {
    const response = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: "not_found" } });
  });

  it("can be scripted over HTTP through /_control", async () => {
    const origin = server.url.replace(/\/v1$/, "");
    const queued = await fetch(`${origin}/_control/enqueue`, {
      method: "POST",
      body: JSON.stringify({ behaviours: [behaviours.reply("scripted remotely")] }),
    });
    expect(await queued.json()).toEqual({ queued: 1 });
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
    });
    expect(completion.choices[0]?.message.content).toBe("scripted remotely");
    const recorded = (await (await fetch(`${origin}/_control/requests`)).json()) as {
      path: string;
    }[];
    expect(recorded.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
    await fetch(`${origin}/_control/reset`, { method: "POST" });
    expect(server.requests).toHaveLength(0);
  });
});
