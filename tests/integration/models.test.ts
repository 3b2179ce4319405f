import { afterAll, beforeEach, expect, it } from "vitest";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer } from "../support/recording-server";
import { describeEachDatabase } from "./support/databases";
import { useApp } from "./support/routes";

/**
 * Models within reach ([R203]): the provider's models with what the registry knows of them,
 * and a turn on another model than the session's — "Retry with…" — through the routes.
 */

const server = await startRecordingServer({
  models: ["spindle-test-model", "gpt-4o-mini", "llama3.1:8b"],
});
afterAll(() => server.close());

describeEachDatabase("[R203] models", (kind) => {
  useApp(
    kind,
    { SPINDLE_AUTH: "off", OPENAI_BASE_URL: server.url, SPINDLE_MODEL: "spindle-test-model" },
    (app) => ({ routes } = app),
  );
  let routes: Parameters<Parameters<typeof useApp>[2]>[0]["routes"] | undefined;
  const call = (...args: Parameters<NonNullable<typeof routes>["call"]>) => {
    if (!routes) throw new Error("the app is not up");
    return routes.call(...args);
  };
  beforeEach(() => server.reset());
  const modelsAsked = () => server.chatRequests.map((r) => r.body?.["model"]);

  it("[R203] GET /api/models lists the provider's models with window, tools and no price off OpenAI", async () => {
    const res = await call("GET", "/api/models");
    expect(res.status).toBe(200);
    expect(res.json["error"]).toBeNull();
    expect(res.json["models"]).toEqual([
      {
        id: "gpt-4o-mini",
        contextWindow: 128_000,
        tools: true,
        vision: true,
        known: true,
        price: null,
      },
      {
        id: "llama3.1:8b",
        contextWindow: 131_072,
        tools: true,
        vision: false,
        known: true,
        price: null,
      },
      // Unknown to the registry: the conservative window, no tools, no vision.
      {
        id: "spindle-test-model",
        contextWindow: 8192,
        tools: false,
        vision: false,
        known: false,
        price: null,
      },
    ]);
    expect(res.json["provider"]).toMatchObject({ model: "spindle-test-model" });
    expect(JSON.stringify(res.json)).not.toMatch(/apiKey|sk-/);
  });

  it("[R203] a turn's model runs that turn only: the retry records it, the session keeps its own", async () => {
    const created = await call("POST", "/api/sessions", { title: "Models" });
    const session = created.json as unknown as SessionRecord;
    const first = await call("POST", `/api/sessions/${session.id}/turns`, {
      content: "Which model are you?",
      stream: false,
    });
    expect(first.status, first.text).toBe(200);
    const reply = first.json["reply"] as LedgerNode;
    expect(reply.metadata.model).toBe("spindle-test-model");

    const retried = await call("POST", `/api/sessions/${session.id}/turns`, {
      mode: "retry",
      targetId: reply.id,
      model: "llama3.1:8b",
      stream: false,
    });
    expect(retried.status, retried.text).toBe(200);
    const sibling = retried.json["reply"] as LedgerNode;
    expect(sibling.predecessorId).toBe(reply.predecessorId);
    expect(sibling.metadata.model).toBe("llama3.1:8b");
    expect(sibling.metadata.usage).toEqual({
      promptTokens: expect.any(Number),
      completionTokens: expect.any(Number),
    });

    const next = await call("POST", `/api/sessions/${session.id}/turns`, {
      content: "And now?",
      stream: false,
    });
    expect((next.json["reply"] as LedgerNode).metadata.model).toBe("spindle-test-model");
    expect(modelsAsked()).toEqual(["spindle-test-model", "llama3.1:8b", "spindle-test-model"]);
    const after = await call("GET", `/api/sessions/${session.id}`);
    expect((after.json as unknown as SessionRecord).meta.settings?.model).toBeUndefined();
  });

  it("[R203] bad input: a blank or oversized model name is a 400; an unlisted one fails with the provider's error and loses nothing", async () => {
    const created = await call("POST", "/api/sessions", {});
    const id = (created.json as unknown as SessionRecord).id;
    for (const model of ["  ", "m".repeat(201)]) {
      const res = await call("POST", `/api/sessions/${id}/turns`, {
        content: "hi",
        model,
        stream: false,
      });
      expect(res.status).toBe(400);
    }
    expect(server.chatRequests).toHaveLength(0);
    // The recording server answers any name; the real refusal is the provider's (404 model
    // not found), which arrives as the reply's error: the user message stays.
    server.enqueue(
      behaviours.error(404, {
        error: { message: "The model `nope` does not exist.", type: "invalid_request_error" },
      }),
    );
    const res = await call("POST", `/api/sessions/${id}/turns`, {
      content: "kept",
      model: "nope",
      stream: false,
    });
    const user = res.json["user"] as LedgerNode;
    const reply = res.json["reply"] as LedgerNode;
    expect(user.content).toBe("kept");
    expect(reply.status).toBe("error");
    expect(reply.metadata.error?.message).toMatch(/nope/);
    expect(reply.metadata.model).toBe("nope");
  });
});
