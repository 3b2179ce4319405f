import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/http/openapi";
import { ORIGIN, useApp, type Routes } from "./support/routes";
import { expectDocumentedAnswer, expectSchema, invalidSchemas } from "./support/openapi-schema";

/**
 * The route handlers themselves, called with real Requests against a real SQLite file and
 * the offline model, in single-user mode (accounts have their own suite,
 * accounts.test.ts): wire shapes (validated against the OpenAPI document), error codes and
 * statuses, and the session check on every id.
 */

let routes: Routes;
useApp("sqlite", { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));

const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);

describe("[R69] HTTP API", () => {
  it("[R69] the OpenAPI document lists exactly the routes and methods that exist", () => {
    const documented = new Set(
      Object.entries(openApiDocument.paths).flatMap(([p, ops]) =>
        Object.keys(ops)
          .filter((k) => k !== "parameters")
          .map((m) => `${m.toUpperCase()} ${p}`),
      ),
    );
    const routed = new Set(routes.routed());
    expect([...routed].sort()).toEqual([...documented].sort());
  });

  it("[R69] wire shapes validate against the document, end to end", async () => {
    const health = await call("GET", "/api/health");
    expect(health.status).toBe(200);
    expectSchema("Health", health.json);
    expect(health.json).toMatchObject({ ok: true, db: "sqlite", model: "offline" });

    const created = await call("POST", "/api/sessions", { title: "API" });
    expect(created.status).toBe(201);
    expectSchema("Session", created.json);
    const id = created.json["id"] as string;

    const turn = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Hello API",
      stream: false,
    });
    expect(turn.status).toBe(200);
    expectSchema("TurnResult", turn.json);
    const reply = turn.json["reply"] as { id: string; reads: string[] };

    // One exchange: too little to compact, answered as a notice.
    const compact = await call("POST", `/api/sessions/${id}/compact`);
    expect(compact.status).toBe(200);
    expectSchema("CompactResult", compact.json);
    expect(compact.json["notice"]).toMatch(/Not enough conversation/);
    expect(compact.json["summary"]).toBeNull();

    const sse = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Streamed",
      mode: "send",
    });
    expect(sse.type).toContain("text/event-stream");
    expect(sse.text).toMatch(/event: node\n/);
    expect(sse.text).toMatch(/event: delta\ndata: \{"id":/);
    expect(sse.text).toMatch(/event: done\n/);
    // [R89] Each delta says where it starts; laid end to end they are the sealed reply.
    const events = [...sse.text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2] ?? "null") as Record<string, unknown>,
    }));
    let streamed = "";
    for (const e of events.filter((x) => x.event === "delta")) {
      expect(e.data["offset"]).toBe(streamed.length);
      streamed += e.data["text"] as string;
    }
    const done = events.find((e) => e.event === "done")?.data["node"] as { content: string };
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed).toBe(done.content);

    const context = await call("GET", `/api/sessions/${id}/context?head=${reply.id}`);
    expectSchema("Context", context.json);
    expect(context.json["ids"]).toEqual([...reply.reads, reply.id]);

    expectSchema("Graph", (await call("GET", `/api/sessions/${id}/graph`)).json);
    const nodes = await call("GET", `/api/sessions/${id}/nodes`);
    expect((nodes.json["nodes"] as unknown[]).length).toBe(5);
    expectSchema("SessionPage", (await call("GET", "/api/sessions?limit=5")).json);

    const task = await call("POST", `/api/sessions/${id}/tasks`, { prompt: "Summarise our chat" });
    expect(task.status).toBe(200);
    expectSchema("TaskResult", task.json);

    const other = await call("POST", "/api/sessions", {});
    const sent = await call("POST", `/api/sessions/${id}/send`, {
      targetSessionId: other.json["id"],
      content: "hi there",
    });
    expect(sent.status).toBe(200);
    expectSchema("TurnResult", sent.json);

    const patched = await call("PATCH", `/api/sessions/${id}`, {
      title: "Renamed",
      settings: { keepRecentTokens: 500 },
    });
    expect(patched.json).toMatchObject({
      title: "Renamed",
      meta: { settings: { keepRecentTokens: 500 } },
    });
    const cleared = await call("PATCH", `/api/sessions/${id}`, {
      settings: { keepRecentTokens: null },
    });
    expect(
      (cleared.json["meta"] as { settings: Record<string, unknown> }).settings,
    ).not.toHaveProperty("keepRecentTokens");

    const exported = await call("GET", `/api/sessions/${id}/export?format=json`);
    expectSchema("LedgerFile", exported.json);
    const imported = await call("POST", "/api/import", exported.text);
    expect(imported.status).toBe(201);
    const importedNodes = await call("GET", `/api/sessions/${imported.json["id"] as string}/nodes`);
    expect((importedNodes.json["nodes"] as unknown[]).length).toBe(
      (exported.json["nodes"] as unknown[]).length,
    );
    const md = await call("GET", `/api/sessions/${id}/export?format=md`);
    expect(md.type).toContain("text/markdown");
    expect(md.text).toContain("# Renamed");

    expectSchema("Error", (await call("GET", `/api/sessions/NOPE0000`)).json);
    expect((await call("DELETE", `/api/sessions/${other.json["id"] as string}`)).status).toBe(204);
  });

  it("[R276] every answer is checked against the document, and the check refuses what it does not describe", async () => {
    const id = (await call("POST", "/api/sessions", {})).json["id"] as string;
    const res = await call("GET", `/api/sessions/${id}`);
    expect(res.status).toBe(200);
    // The same answer with one more field, or with a status the route does not list, fails.
    expect(() =>
      expectDocumentedAnswer("GET", "/api/sessions/{id}", {
        ...res,
        json: { ...res.json, surprise: 1 },
      }),
    ).toThrow(/surprise/);
    expect(() =>
      expectDocumentedAnswer("GET", "/api/sessions/{id}", {
        ...res,
        json: { ...res.json, meta: { ...(res.json["meta"] as object), settings: { modle: "m" } } },
      }),
    ).toThrow(/modle/);
    expect(() =>
      expectDocumentedAnswer("GET", "/api/sessions/{id}", { ...res, status: 202 }),
    ).toThrow(/does not list/);
    // Every documented operation, called once as a stranger would: each answer (an error
    // for most) is validated by `call` itself.
    const unknown = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    for (const [template, operations] of Object.entries(openApiDocument.paths)) {
      for (const method of Object.keys(operations).filter((k) => k !== "parameters")) {
        const url = template.replace(/\{\w+\}/g, unknown);
        const verb = method.toUpperCase() as "GET" | "POST" | "PATCH" | "DELETE";
        const answer = await call(verb, url, verb === "GET" ? undefined : {});
        expect(answer.status, `${verb} ${url}`).toBeLessThan(500);
      }
    }
  });

  it("[R276] the document's answers are closed objects, bar the maps the engine extends", () => {
    // Node metadata and session meta carry keys the engine writes for itself.
    const open = new Set(["metadata", "meta"]);
    const requests = new Set(["TurnRequest", "ChatGptConversation", "LedgerFile"]);
    const loose: string[] = [];
    const walk = (schema: unknown, path: string): void => {
      if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${path}[${i}]`));
      if (typeof schema !== "object" || schema === null) return;
      const s = schema as Record<string, unknown>;
      const last = path.split(".").at(-1) ?? "";
      // A map by position (a packed ledger's metadata, reads, callers): its keys are
      // constrained and each value is what the map is named for.
      const map = s["propertyNames"] !== undefined && typeof s["additionalProperties"] === "object";
      if (s["type"] === "object" && s["additionalProperties"] !== false && !open.has(last) && !map)
        loose.push(path);
      for (const [k, v] of Object.entries(s)) {
        walk(
          v,
          k === "properties" || (map && k === "additionalProperties") ? path : `${path}.${k}`,
        );
      }
    };
    for (const [name, schema] of Object.entries(openApiDocument.components.schemas)) {
      if (!requests.has(name)) walk(schema, name);
    }
    expect(loose).toEqual([]);
    // Generated, they are still valid JSON Schema in OpenAPI 3.1's dialect.
    expect(invalidSchemas()).toEqual([]);
  });

  it("[R70] the events route streams a session's events to a subscriber", async () => {
    const created = await call("POST", "/api/sessions", {});
    const id = created.json["id"] as string;
    const events = routes.modules.get("/api/sessions/{id}/events")?.GET;
    if (!events) throw new Error("events route missing");
    const controller = new AbortController();
    const res = await events(
      new Request(`${ORIGIN}/api/sessions/${id}/events`, { signal: controller.signal }),
      {
        params: Promise.resolve({ id }),
      },
    );
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/event: ready\n/);
    await call("POST", `/api/sessions/${id}/turns`, { content: "over the channel", stream: false });
    await until(/event: turn_finished\n/);
    expect(text).toMatch(/event: node_appended\ndata: \{"type":"node_appended","node":\{/);
    expect(text).toMatch(/event: head_moved\n/);
    controller.abort();
    await reader.cancel();
  });

  it("[R69] errors carry a code and status, and ids are checked against their session", async () => {
    const a = (await call("POST", "/api/sessions", {})).json;
    const b = (await call("POST", "/api/sessions", {})).json;
    const bRoot = b["rootId"] as string;
    const expectError = async (
      p: Promise<{ status: number; json: Record<string, unknown> }>,
      status: number,
      code: string,
    ) => {
      const r = await p;
      expect(r.status).toBe(status);
      expect((r.json["error"] as { code: string }).code).toBe(code);
      expectSchema("Error", r.json);
    };
    const aId = a["id"] as string;
    await expectError(call("GET", "/api/sessions/01UNKNOWNSESSION"), 404, "session_not_found");
    await expectError(call("GET", "/api/sessions/not%20an%20id!"), 404, "session_not_found");
    await expectError(
      call("GET", `/api/sessions/${aId}/context?head=${bRoot}`),
      404,
      "node_not_found",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/head`, { nodeId: bRoot }),
      404,
      "node_not_found",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/turns`, { content: "x", parentId: bRoot, stream: false }),
      404,
      "node_not_found",
    );
    await expectError(
      call("DELETE", `/api/sessions/${aId}/branches/${bRoot}`),
      404,
      "node_not_found",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/tasks`, { prompt: "p", callerId: bRoot }),
      404,
      "node_not_found",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/turns`, { content: "   ", stream: false }),
      400,
      "empty_content",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/turns`, { content: "x".repeat(200_001) }),
      413,
      "content_too_large",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/turns`, "{not json"),
      400,
      "invalid_request",
    );
    await expectError(
      call("POST", `/api/sessions/${aId}/turns`, { mode: "nonsense" }),
      400,
      "invalid_request",
    );
    await expectError(
      call("PATCH", `/api/sessions/${aId}`, { settings: { contextWindow: -1 } }),
      400,
      "invalid_request",
    );
    // [R87] Text with a NUL character and absurdly deep JSON are refused on every route.
    for (const [method, url, body] of [
      ["POST", `/api/sessions/${aId}/turns`, { content: "a\u0000b", stream: false }],
      ["POST", `/api/sessions/${aId}/tasks`, { prompt: "a\u0000b" }],
      ["PATCH", `/api/sessions/${aId}`, { title: "a\u0000b" }],
      ["POST", "/api/sessions", { title: "x\u0000" }],
      ["PATCH", `/api/sessions/${aId}`, { settings: { model: "m\u0000" } }],
    ] as const) {
      await expectError(call(method, url, body), 400, "invalid_request");
    }
    const deep = `{"title":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    await expectError(call("POST", "/api/sessions", deep), 400, "invalid_request");
    await expectError(call("POST", "/api/import", deep), 400, "invalid_request");
    // Nothing was written by any of those.
    expect(
      ((await call("GET", `/api/sessions/${aId}/nodes`)).json["nodes"] as unknown[]).length,
    ).toBe(1);

    const t = (await call("POST", `/api/sessions/${aId}/turns`, { content: "one", stream: false }))
      .json;
    const retry = (
      await call("POST", `/api/sessions/${aId}/turns`, {
        mode: "retry",
        targetId: (t["reply"] as { id: string }).id,
        stream: false,
      })
    ).json;
    await expectError(
      call("POST", `/api/sessions/${aId}/head`, {
        nodeId: (t["reply"] as { id: string }).id,
        move: "rewind",
      }),
      409,
      "node_not_on_spine",
    );
    expect(retry["reply"]).toBeTruthy();
  });
});
