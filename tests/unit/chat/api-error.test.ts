import { describe, expect, it } from "vitest";
import { errorOf } from "@/components/ui/api-error";

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
