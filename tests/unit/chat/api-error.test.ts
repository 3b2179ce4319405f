import { describe, expect, it } from "vitest";
import { errorBodyOf, errorOf } from "@/components/ui/api-error";
import { readAnswer } from "@/components/ui/read-answer";
import { sessionBodySchema } from "@/lib/http/answers";

const json = (body: unknown, status = 400) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("a failed API answer's message for the page", () => {
  it("reads the message of the error body", async () => {
    expect(await errorOf(json({ error: { code: "bad", message: "Name taken." } }))).toBe(
      "Name taken.",
    );
  });

  it("falls back to the status when the body carries no message", async () => {
    expect(await errorOf(json({}, 500))).toBe("Request failed (500).");
    expect(await errorOf(json(null, 502))).toBe("Request failed (502).");
    expect(await errorOf(json({ error: { message: "" } }, 409))).toBe("Request failed (409).");
  });

  it("falls back when the body is not JSON, or to the caller's own words", async () => {
    expect(await errorOf(new Response("<html>", { status: 503 }))).toBe("Request failed (503).");
    expect(await errorOf(new Response("", { status: 401 }), "That did not work (401).")).toBe(
      "That did not work (401).",
    );
  });
});

describe("a failed API answer's code and message, for the imports' reports", () => {
  it("keeps the code the server gave, or says http_error with the caller's words", async () => {
    expect(await errorBodyOf(json({ error: { code: "too_large", message: "Too big." } }))).toEqual({
      code: "too_large",
      message: "Too big.",
    });
    expect(await errorBodyOf(new Response("<html>", { status: 502 }), "Answered 502.")).toEqual({
      code: "http_error",
      message: "Answered 502.",
    });
  });
});

describe("a successful API answer, parsed with the schema the server answers with", () => {
  const session = {
    id: "s1",
    title: "A trip",
    headId: "n2",
    rootId: "n0",
    meta: { settings: { model: "m", autoCompact: false }, custom: 1 },
    createdAt: "2026-12-03T10:00:00.000Z",
    updatedAt: "2026-12-03T10:00:01.000Z",
    activeSummaryIds: [],
  };

  it("gives the answer's fields as sent", async () => {
    expect(await readAnswer(json(session, 200), sessionBodySchema)).toEqual(session);
  });

  it("refuses a body of another shape, naming the first field that differs", async () => {
    await expect(
      readAnswer(json({ ...session, headId: 5 }, 200), sessionBodySchema),
    ).rejects.toThrow(/not understood at headId/);
    await expect(
      readAnswer(json({ ...session, meta: { settings: { model: null } } }, 200), sessionBodySchema),
    ).rejects.toThrow(/at meta\.settings\.model/);
  });

  it("says so when the body is not JSON (a proxy's page)", async () => {
    await expect(
      readAnswer(new Response("<html>", { status: 200 }), sessionBodySchema),
    ).rejects.toThrow("The server's answer was not JSON (200).");
  });
});
