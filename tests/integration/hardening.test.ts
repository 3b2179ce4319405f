import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases";
import { cookieOf, ORIGIN, useApp, type Routes } from "./support/routes";

/**
 * Findings of the adversarial review (issue 18), through the real route handlers on SQLite
 * and PostgreSQL: each test would fail on the code the review ran against.
 */

const PASSWORD = "correct horse battery";

describeEachDatabase("[R142] hardening of the edge", (kind) => {
  let routes: Routes;
  let admin: Record<string, string>;

  useApp(
    kind,
    { SPINDLE_ALLOW_SIGNUP: "true", SPINDLE_PUBLIC_URL: undefined },
    (app) => ({ routes } = app),
  );

  beforeAll(async () => {
    const first = await routes.call(
      "POST",
      "/api/auth/sign-up/email",
      { email: "root@example.com", password: PASSWORD, name: "Root" },
      { headers: { origin: ORIGIN } },
    );
    expect(first.status, first.text).toBe(200);
    admin = { origin: ORIGIN, cookie: cookieOf(first.headers) };
  });

  it("[R142] an Origin differing only in scheme or port is refused; the exact one is accepted", async () => {
    const { host, port } = new URL(ORIGIN);
    for (const origin of [
      `https://${host}`,
      `https://127.0.0.1:${port}`,
      "http://127.0.0.1:3001",
      "http://127.0.0.1",
      "null",
    ]) {
      const res = await routes.call(
        "POST",
        "/api/sessions",
        { title: "x" },
        {
          headers: { ...admin, origin },
        },
      );
      expect(res.status, origin).toBe(403);
      expect(res.json).toMatchObject({ error: { code: "cross_origin" } });
    }
    const ok = await routes.call("POST", "/api/sessions", { title: "x" }, { headers: admin });
    expect(ok.status).toBe(201);
  });
});
