import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/http/openapi";
import { useApp, type Routes } from "./support/routes";
import { expectSchema } from "./support/openapi-schema";

/**
 * What the API does with input it does not know: a field no route takes is a 400 naming it
 * ([R274]); a path no route serves is a JSON 404 ([R275]).
 */

let routes: Routes;
useApp("sqlite", { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));

type Call = Awaited<ReturnType<Routes["call"]>>;

function expectUnknownField(res: Call, field: string): void {
  expect(res.status, res.text).toBe(400);
  expectSchema("Error", res.json);
  const error = res.json["error"] as { code: string; message: string };
  expect(error.code).toBe("invalid_request");
  expect(error.message).toContain(`"${field}"`);
}

/** The documented operations that take a JSON body, as `METHOD /path`. */
function jsonBodyOperations(): string[] {
  return Object.entries(openApiDocument.paths).flatMap(([p, ops]) =>
    Object.entries(ops as Record<string, { requestBody?: { content?: object } }>)
      .filter(([, op]) => op.requestBody?.content && "application/json" in op.requestBody.content)
      .map(([m]) => `${m.toUpperCase()} ${p}`),
  );
}

describe("[R274] unknown fields", () => {
  it("[R274] a JSON body with a field the route does not take is a 400 that names it, on every route", async () => {
    const session = (await routes.call("POST", "/api/sessions", {})).json;
    const id = session["id"] as string;
    const root = session["rootId"] as string;
    const other = (await routes.call("POST", "/api/sessions", {})).json["id"] as string;
    const bodies: Record<string, [string, Record<string, unknown>, string]> = {
      "POST /api/sessions": ["/api/sessions", { title: "t", systemPromt: "x" }, "systemPromt"],
      "PATCH /api/sessions/{id}": [`/api/sessions/${id}`, { titel: "t" }, "titel"],
      "POST /api/sessions/{id}/turns": [
        `/api/sessions/${id}/turns`,
        { content: "hello", stream: false, temperature: 0.2 },
        "temperature",
      ],
      "POST /api/sessions/{id}/replays": [
        `/api/sessions/${id}/replays`,
        { nodeId: root, stream: false, expandAll: true },
        "expandAll",
      ],
      "POST /api/sessions/{id}/head": [
        `/api/sessions/${id}/head`,
        { nodeId: root, mode: "rewind" },
        "mode",
      ],
      "POST /api/sessions/{id}/tasks": [
        `/api/sessions/${id}/tasks`,
        { prompt: "p", parentId: root },
        "parentId",
      ],
      "POST /api/sessions/{id}/send": [
        `/api/sessions/${id}/send`,
        { targetSessionId: other, content: "hi", stream: false },
        "stream",
      ],
      "POST /api/sessions/{id}/fork": [
        `/api/sessions/${id}/fork`,
        { systemPrompt: "s", nodeId: root },
        "nodeId",
      ],
      "POST /api/sessions/{id}/audits": [
        `/api/sessions/${id}/audits`,
        { summaryId: root, judge: "m" },
        "judge",
      ],
      "POST /api/keys": ["/api/keys", { name: "k", expires: "never" }, "expires"],
    };
    // Imports take files other programs (and older Spindles) wrote: extra fields are ignored.
    const files = new Set(["POST /api/import", "POST /api/import/chatgpt"]);
    expect(Object.keys(bodies).sort()).toEqual(
      jsonBodyOperations()
        .filter((op) => !files.has(op))
        .sort(),
    );
    for (const [op, [url, body, field]] of Object.entries(bodies)) {
      const method = op.split(" ")[0] as "POST" | "PATCH";
      expectUnknownField(await routes.call(method, url, body), field);
    }
    // Nested objects are closed too, and the field is named by its path.
    expectUnknownField(
      await routes.call("PATCH", `/api/sessions/${id}`, { settings: { modle: "gpt-4o" } }),
      "settings.modle",
    );
    // Nothing was written: no turn, no rename, no new session.
    const nodes = await routes.call("GET", `/api/sessions/${id}/nodes`);
    expect((nodes.json["nodes"] as unknown[]).length).toBe(1);
    const after = await routes.call("GET", `/api/sessions/${id}`);
    expect(after.json["title"]).toBe(session["title"]);
    const list = await routes.call("GET", "/api/sessions");
    expect((list.json["sessions"] as unknown[]).length).toBe(2);
  });

  it("[R274] a query parameter the route does not take is a 400 that names it", async () => {
    const session = (await routes.call("POST", "/api/sessions", {})).json;
    const id = session["id"] as string;
    const root = session["rootId"] as string;
    for (const url of [
      "/api/sessions?limit=5&sort=title",
      "/api/search?q=hello&sort=title",
      `/api/sessions/${id}/nodes?view=lean&sort=title`,
      `/api/sessions/${id}/graph?afterSeq=0&sort=title`,
      `/api/sessions/${id}/export?format=json&sort=title`,
      `/api/sessions/${id}/compare?a=${root}&b=${root}&sort=title`,
      `/api/sessions/${id}/audits?sort=title`,
      `/api/sessions/${id}/context?head=${root}&sort=title`,
    ]) {
      expectUnknownField(await routes.call("GET", url), "sort");
    }
    // The same requests without it answer.
    expect((await routes.call("GET", `/api/sessions/${id}/context?head=${root}`)).status).toBe(200);
    expect((await routes.call("GET", "/api/sessions?limit=5")).status).toBe(200);
  });

  it("[R274] a ledger file keeps importing with fields this version does not know", async () => {
    const id = (await routes.call("POST", "/api/sessions", { title: "Old file" })).json[
      "id"
    ] as string;
    await routes.call("POST", `/api/sessions/${id}/turns`, { content: "hi", stream: false });
    const file = (await routes.call("GET", `/api/sessions/${id}/export`)).json;
    const nodes = (file["nodes"] as Record<string, unknown>[]).map((n) => ({
      ...n,
      pinned: false,
    }));
    const imported = await routes.call("POST", "/api/import", {
      ...file,
      exportedBy: "spindle 0.9",
      nodes,
    });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json["title"]).toBe("Old file");
  });
});

describe("[R275] unknown API paths", () => {
  it("[R275] a path no route serves is a JSON 404 not_found, whatever the method", async () => {
    for (const url of [
      "/api/nope",
      "/api/sessions/01ARZ3NDEKTSV4RRFFQ69G5FAV/nope",
      "/api/sessions/01ARZ3NDEKTSV4RRFFQ69G5FAV/nodes/extra",
      "/api/health/deep",
    ]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) {
        const res = await routes.call(method, url, method === "GET" ? undefined : {});
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.type).toContain("application/json");
        expectSchema("Error", res.json);
        const error = res.json["error"] as { code: string; message: string };
        expect(error.code).toBe("not_found");
        expect(error.message).toContain(url);
      }
      // HEAD answers the status without a body.
      expect((await routes.call("HEAD", url)).status).toBe(404);
    }
  });

  it("[R275] an unknown path from a Host this server does not answer for is still 421", async () => {
    const foreign = await routes.call("GET", "/api/nope", undefined, {
      headers: { host: "evil.example" },
    });
    expect(foreign.status).toBe(421);
    expect((foreign.json["error"] as { code: string }).code).toBe("misdirected_request");
  });
});
