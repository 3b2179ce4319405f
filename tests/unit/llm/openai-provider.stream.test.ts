import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { behaviours } from "../../support/recording-behaviours";
import { startRecordingServer, type RecordingServer } from "../../support/recording-server";
import { assistant, drain, drainFailure, providerFor, system, textOf, user } from "./helpers";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("OpenAI-compatible provider: streaming over the real SDK", () => {
  it("streams text deltas in order, then usage, then finish", async () => {
    server.enqueue(
      behaviours.reply("Hello there, friend.", {
        chunks: ["Hel", "lo there", ", friend."],
        usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
      }),
    );
    const events = await drain(providerFor(server).stream({ messages: [user("hi")] }));
    expect(events).toEqual([
      { type: "text", text: "Hel" },
      { type: "text", text: "lo there" },
      { type: "text", text: ", friend." },
      { type: "usage", usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 } },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("reports finish_reason length", async () => {
    server.enqueue(behaviours.reply("cut", { finishReason: "length" }));
    const events = await drain(providerFor(server).stream({ messages: [user("long please")] }));
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
  });

  it("sends model, messages, stream and stream_options.include_usage", async () => {
    await drain(
      providerFor(server).stream({
        messages: [system("be brief"), user("first"), assistant("ok"), user("second")],
      }),
    );
    const [request] = server.chatRequests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "first" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "second" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("sends the API key as a bearer token, and no Authorization at all without one", async () => {
    await drain(providerFor(server).stream({ messages: [user("a")] }));
    await drain(providerFor(server, { apiKey: undefined }).stream({ messages: [user("b")] }));
    const [withKey, withoutKey] = server.chatRequests;
    expect(withKey?.headers["authorization"]).toBe("Bearer sk-test-key");
    expect(withoutKey?.headers).not.toHaveProperty("authorization");
  });

  it("uses a per-request model override, max_tokens and temperature", async () => {
    await drain(
      providerFor(server).stream({
        messages: [user("x")],
        model: "llama3.1:8b",
        maxOutputTokens: 64,
        temperature: 0,
      }),
    );
    expect(server.chatRequests[0]?.body).toMatchObject({
      model: "llama3.1:8b",
      max_tokens: 64,
      temperature: 0,
    });
  });

  it("uses max_completion_tokens when told to (as for api.openai.com)", async () => {
    await drain(
      providerFor(server, { maxTokensField: "max_completion_tokens" }).stream({
        messages: [user("x")],
        maxOutputTokens: 32,
      }),
    );
    const body = server.chatRequests[0]?.body;
    expect(body).toMatchObject({ max_completion_tokens: 32 });
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("streams the default echo, which includes the last user message", async () => {
    const events = await drain(
      providerFor(server).stream({ messages: [user("old"), assistant("x"), user("latest words")] }),
    );
    expect(textOf(events)).toBe("You said: latest words");
  });
});

describe("OpenAI-compatible provider: tool calls", () => {
  const weather = {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  };

  it("sends tools in the function shape", async () => {
    await drain(providerFor(server).stream({ messages: [user("weather?")], tools: [weather] }));
    expect(server.chatRequests[0]?.body?.["tools"]).toEqual([
      { type: "function", function: weather },
    ]);
  });

  it("assembles tool calls whose arguments are split across chunks", async () => {
    const parisArgs = JSON.stringify({ city: "Paris", unit: "celsius" });
    server.enqueue(
      behaviours.toolCalls(
        [
          { id: "call_1", name: "get_weather", arguments: parisArgs },
          { id: "call_2", name: "get_weather", arguments: '{"city":"Oslo"}' },
        ],
        "Checking. ",
      ),
    );
    const events = await drain(
      providerFor(server).stream({
        messages: [user("weather in Paris and Oslo")],
        tools: [weather],
      }),
    );
    const deltas = events.filter((e) => e.type === "tool_call_delta");
    // 7-character pieces: the arguments really did arrive split.
    expect(deltas.length).toBeGreaterThan(4);
    expect(textOf(events)).toBe("Checking. ");
    expect(events.find((e) => e.type === "tool_calls")).toEqual({
      type: "tool_calls",
      calls: [
        { id: "call_1", name: "get_weather", arguments: parisArgs },
        { id: "call_2", name: "get_weather", arguments: '{"city":"Oslo"}' },
      ],
    });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
  });

  it("sends assistant tool calls and tool results back in the protocol's shape", async () => {
    await drain(
      providerFor(server).stream({
        messages: [
          user("weather?"),
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "call_9", name: "get_weather", arguments: '{"city":"Rome"}' }],
          },
          { role: "tool", content: '{"temp":21}', tool_call_id: "call_9" },
        ],
        tools: [weather],
      }),
    );
    expect(server.chatRequests[0]?.body?.["messages"]).toEqual([
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_9",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Rome"}' },
          },
        ],
      },
      { role: "tool", content: '{"temp":21}', tool_call_id: "call_9" },
    ]);
  });

  it("refuses a tool message without tool_call_id before sending anything", async () => {
    const { error } = await drainFailure(
      providerFor(server).stream({ messages: [{ role: "tool", content: "x" }] }),
    );
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/tool_call_id/);
    expect(server.chatRequests).toHaveLength(0);
  });
});

describe("OpenAI-compatible provider: listModels", () => {
  it("lists GET /v1/models", async () => {
    const models = await providerFor(server).listModels();
    expect(models).toEqual([{ id: "spindle-test-model", ownedBy: "spindle-tests" }]);
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/models" });
  });
});
