import { afterAll, beforeAll, expect, it } from "vitest";
import type { LedgerNode } from "@/lib/engine/types";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer } from "../support/recording-server";
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

describeEachDatabase("[R143] bad input is 4xx, never 5xx; less disclosure", (kind) => {
  let routes: Routes;
  let user: Record<string, string>;
  useApp(kind, { SPINDLE_ALLOW_SIGNUP: "true" }, (app) => ({ routes } = app));

  beforeAll(async () => {
    const first = await routes.call(
      "POST",
      "/api/auth/sign-up/email",
      { email: "first@example.com", password: PASSWORD, name: "First" },
      { headers: { origin: ORIGIN } },
    );
    expect(first.status, first.text).toBe(200);
    user = { origin: ORIGIN, cookie: cookieOf(first.headers) };
  });

  it("[R143] anonymous admin endpoints answer 401 in Spindle's error shape, never 500", async () => {
    for (const headers of [{}, { cookie: "better-auth.session_token=forged.value" }]) {
      const res = await routes.call("GET", "/api/auth/admin/list-users", undefined, { headers });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: { code: "unauthenticated" } });
    }
  });

  it("[R143] a Host no URL can be made of is 421, never 500", async () => {
    for (const host of ["999.999.999.999", "127.0.0.1:99999", "127.0.0.1:x", "[::1"]) {
      for (const path of ["/api/health", "/api/sessions", "/api/auth/get-session"]) {
        const res = await routes.call("GET", path, undefined, { headers: { ...user, host } });
        expect(res.status, `${host} ${path}`).toBe(421);
      }
    }
  });

  it("[R144] anonymous health says liveness, database and migrations; the model only to a signed-in caller", async () => {
    const anonymous = await routes.call("GET", "/api/health", undefined, { headers: {} });
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toEqual({ ok: true, db: kind, migrations: "up to date" });
    const signedIn = await routes.call("GET", "/api/health", undefined, { headers: user });
    expect(signedIn.json).toMatchObject({
      ok: true,
      model: "offline",
      modelLabel: "offline model",
    });
  });
});

const provider = await startRecordingServer({ models: ["spindle-test-model"] });
afterAll(() => provider.close());

describeEachDatabase("[R145] provider errors shown to users", (kind) => {
  let routes: Routes;
  useApp(
    kind,
    {
      SPINDLE_AUTH: "off",
      OPENAI_BASE_URL: provider.url,
      OPENAI_API_KEY: "sk-test-secret-key-0123456789",
      SPINDLE_MODEL: "spindle-test-model",
    },
    (app) => ({ routes } = app),
  );

  const failedReply = async (): Promise<LedgerNode> => {
    const created = await routes.call("POST", "/api/sessions", { title: "Errors" });
    const res = await routes.call("POST", `/api/sessions/${created.json["id"] as string}/turns`, {
      content: "hello",
      stream: false,
    });
    // The answer's error says what the reply's seal says.
    const reply = res.json["reply"] as LedgerNode;
    expect(reply.status).toBe("error");
    expect(res.json["error"]).toEqual(reply.metadata.error);
    return reply;
  };

  it("[R145] a credentials failure is a code and a short message: no masked key, no host", async () => {
    provider.reset();
    provider.enqueue(
      behaviours.unauthorized(
        "Incorrect API key provided: sk-test-********************6789. You can find your API key at https://platform.openai.com/account/api-keys.",
      ),
    );
    const reply = await failedReply();
    expect(reply.metadata.error?.code).toBe("auth_failed");
    const message = reply.metadata.error?.message ?? "";
    expect(message).toMatch(/credentials/);
    expect(message).not.toMatch(/sk-|\*\*\*|platform\.openai\.com|127\.0\.0\.1/);
  });

  it("[R145] a refused request keeps what to change, without addresses or keys", async () => {
    provider.reset();
    const host = new URL(provider.url).host;
    provider.enqueue(
      behaviours.error(400, {
        error: {
          message: `Unknown parameter 'foo' (upstream ${host}, key sk-test-secret-key-0123456789)`,
          type: "invalid_request_error",
        },
      }),
    );
    const reply = await failedReply();
    expect(reply.metadata.error?.code).toBe("bad_request");
    const message = reply.metadata.error?.message ?? "";
    expect(message).toMatch(/Unknown parameter 'foo'/);
    expect(message).not.toContain(host);
    expect(message).not.toMatch(/sk-/);
  });
});

describeEachDatabase("[R145] an unreachable provider", (kind) => {
  let routes: Routes;
  useApp(
    kind,
    { SPINDLE_AUTH: "off", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", SPINDLE_MODEL: "m" },
    (app) => ({ routes } = app),
  );

  it("[R145] an unreachable endpoint's address is not shown to the user", async () => {
    const created = await routes.call("POST", "/api/sessions", { title: "Down" });
    const res = await routes.call("POST", `/api/sessions/${created.json["id"] as string}/turns`, {
      content: "hello",
      stream: false,
    });
    const reply = res.json["reply"] as LedgerNode;
    expect(reply.metadata.error?.code).toBe("unreachable");
    expect(reply.metadata.error?.message).not.toMatch(/127\.0\.0\.1|:9\b|ECONNREFUSED/);
    const models = await routes.call("GET", "/api/models");
    expect(String(models.json["error"])).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });
});

describeEachDatabase("[R146] trusted proxies", (kind) => {
  const PROXY = "10.9.9.9";
  const spray = (count: number, headers: (i: number) => Record<string, string>) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        routes.call(
          "POST",
          "/api/auth/sign-in/email",
          { email: `nobody-${i}@example.com`, password: "wrong password" },
          { headers: { origin: ORIGIN, ...headers(i) } },
        ),
      ),
    );
  let routes: Routes;
  useApp(
    kind,
    { SPINDLE_ALLOW_SIGNUP: "true", SPINDLE_TRUSTED_PROXIES: `${PROXY}, ::1` },
    (app) => ({ routes } = app),
  );

  it("[R146] a client's own X-Forwarded-For is not believed: one socket is throttled as one address", async () => {
    const tries = await spray(35, (i) => ({
      "x-spindle-peer": "127.0.0.1",
      "x-forwarded-for": `203.0.113.${i}`,
    }));
    const statuses = tries.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
  });

  it("[R146] behind a trusted proxy each forwarded client has its own bucket", async () => {
    const tries = await spray(35, (i) => ({
      "x-spindle-peer": `::ffff:${PROXY}`,
      // What the client wrote, then what the proxy appended: only the latter counts.
      "x-forwarded-for": `198.51.100.1, 192.0.2.${i}`,
    }));
    expect(tries.map((r) => r.status).filter((s) => s !== 401)).toEqual([]);
  });

  it("[R146] X-Forwarded-Host and -Proto decide the expected Origin only from a trusted proxy", async () => {
    const first = await routes.call(
      "POST",
      "/api/auth/sign-up/email",
      { email: "proxied@example.com", password: PASSWORD, name: "P" },
      { headers: { origin: ORIGIN } },
    );
    expect(first.status, first.text).toBe(200);
    const forwarded = {
      cookie: cookieOf(first.headers),
      origin: "https://chat.example.org",
      "x-forwarded-host": "chat.example.org",
      "x-forwarded-proto": "https",
    };
    const trusted = await routes.call(
      "POST",
      "/api/sessions",
      { title: "via proxy" },
      {
        headers: { ...forwarded, "x-spindle-peer": PROXY },
      },
    );
    expect(trusted.status, trusted.text).toBe(201);
    for (const peer of ["127.0.0.1", "10.9.9.8", ""]) {
      const spoofed = await routes.call(
        "POST",
        "/api/sessions",
        { title: "spoofed" },
        {
          headers: { ...forwarded, "x-spindle-peer": peer },
        },
      );
      expect(spoofed.status, peer).toBe(403);
    }
  });
});
