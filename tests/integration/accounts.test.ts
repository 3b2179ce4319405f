import { beforeAll, expect, it } from "vitest";
import { openApiDocument } from "@/lib/http/openapi";
import { SIGN_IN_LIMITS } from "@/lib/auth/throttle";
import { services } from "@/lib/server/services";
import { describeEachDatabase } from "./support/databases";
import { cookieOf, ORIGIN, useApp, type Routes } from "./support/routes";

/**
 * Accounts, ownership and the edge (docs/security.md), through the real route handlers on
 * SQLite and PostgreSQL: two users, every documented route called by one on the other's
 * ids, requests without credentials, forged origins and body types, throttled sign-in,
 * API keys and disabled accounts.
 */

const PASSWORD = "correct horse battery";

describeEachDatabase("[R76] accounts and ownership", (kind) => {
  let routes: Routes;
  /** A same-origin browser request of a signed-in user. */
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let aliceSession: string;
  let aliceNodes: string[];

  const signUp = (email: string, name: string) =>
    routes.call(
      "POST",
      "/api/auth/sign-up/email",
      { email, password: PASSWORD, name },
      {
        headers: { origin: ORIGIN },
      },
    );
  const signIn = (email: string, password: string, address = "10.0.0.1") =>
    routes.call(
      "POST",
      "/api/auth/sign-in/email",
      { email, password },
      {
        headers: { origin: ORIGIN, "x-spindle-peer": address },
      },
    );

  /** Everything a user can see of a session, to compare before and after an attack. */
  const snapshot = async (id: string) => {
    const { store } = await services();
    return JSON.stringify([await store.getSession(id as never), await store.nodes(id as never)]);
  };

  useApp(kind, { SPINDLE_ALLOW_SIGNUP: undefined }, (app) => ({ routes } = app));

  beforeAll(async () => {
    const first = await signUp("alice@example.com", "Alice");
    expect(first.status).toBe(200);
    alice = { origin: ORIGIN, cookie: cookieOf(first.headers) };

    const created = await routes.call(
      "POST",
      "/api/sessions",
      { title: "Alice's" },
      {
        headers: alice,
      },
    );
    expect(created.status).toBe(201);
    aliceSession = created.json["id"] as string;
    const turn = await routes.call(
      "POST",
      `/api/sessions/${aliceSession}/turns`,
      { content: "secret plans", stream: false },
      { headers: alice },
    );
    expect(turn.status).toBe(200);
    const nodes = await routes.call("GET", `/api/sessions/${aliceSession}/nodes`, undefined, {
      headers: alice,
    });
    aliceNodes = (nodes.json["nodes"] as { id: string }[]).map((n) => n.id);
  });

  it("[R76] the first account is the admin; sign-up then closes, and the admin creates accounts", async () => {
    const { database } = await services();
    const admin = await database.db.user.findUnique({ where: { email: "alice@example.com" } });
    expect(admin?.role).toBe("admin");

    const refused = await signUp("mallory@example.com", "Mallory");
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: "signup_closed" } });
    // The same answer for an address that has an account: closed sign-up reveals nobody.
    const existing = await signUp("alice@example.com", "Alice again");
    expect(existing.json).toEqual(refused.json);
    expect(await database.db.user.count()).toBe(1);

    const created = await routes.call(
      "POST",
      "/api/auth/admin/create-user",
      { email: "bob@example.com", password: PASSWORD, name: "Bob", role: "user" },
      { headers: alice },
    );
    expect(created.status).toBe(200);
    const bobIn = await signIn("bob@example.com", PASSWORD);
    expect(bobIn.status).toBe(200);
    bob = { origin: ORIGIN, cookie: cookieOf(bobIn.headers) };
    const bobRow = await database.db.user.findUnique({ where: { email: "bob@example.com" } });
    expect(bobRow?.role).toBe("user");
  });

  it("[R76] every documented route called by another user on someone's ids answers 404 and changes nothing", async () => {
    const before = await snapshot(aliceSession);
    const bobOwn = (await routes.call("POST", "/api/sessions", {}, { headers: bob })).json;
    const node = aliceNodes.at(-1) as string;
    const bodies: Record<string, unknown> = {
      "POST /api/sessions/{id}/turns": { content: "injected", stream: false },
      "POST /api/sessions/{id}/head": { nodeId: aliceNodes[0] },
      "POST /api/sessions/{id}/tasks": { prompt: "steal" },
      "POST /api/sessions/{id}/send": { targetSessionId: bobOwn["id"], content: "x" },
      "PATCH /api/sessions/{id}": { title: "pwned" },
      "POST /api/sessions/{id}/fork": { systemPrompt: "steal" },
    };
    let checked = 0;
    for (const [template, ops] of Object.entries(openApiDocument.paths)) {
      if (!template.includes("{id}") || template.startsWith("/api/keys")) continue;
      for (const method of Object.keys(ops).filter((k) => k !== "parameters")) {
        const m = method.toUpperCase() as "GET" | "POST" | "PATCH" | "DELETE";
        const url = template.replace("{id}", aliceSession).replace("{nodeId}", node);
        const res = await routes.call(m, url, bodies[`${m} ${template}`] ?? {}, {
          headers: bob,
        });
        expect(res.status, `${m} ${template}`).toBe(404);
        expect(res.json, `${m} ${template}`).toMatchObject({
          error: { code: "session_not_found" },
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(14);
    // The other direction of a cross-session send: Bob's session, Alice's as the target.
    const send = await routes.call(
      "POST",
      `/api/sessions/${bobOwn["id"] as string}/send`,
      { targetSessionId: aliceSession, content: "injected" },
      { headers: bob },
    );
    expect(send.status).toBe(404);
    // Bob's list does not show Alice's session; Alice's ledger is untouched.
    const list = await routes.call("GET", "/api/sessions", undefined, { headers: bob });
    expect((list.json["sessions"] as { id: string }[]).map((s) => s.id)).not.toContain(
      aliceSession,
    );
    expect(await snapshot(aliceSession)).toBe(before);
  });

  it("[R76] without credentials every route but health and the document answers 401", async () => {
    let checked = 0;
    for (const [template, ops] of Object.entries(openApiDocument.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === "parameters") continue;
        const m = method.toUpperCase() as "GET" | "POST" | "PATCH" | "DELETE";
        const url = template.replace("{id}", aliceSession).replace("{nodeId}", aliceNodes[0]!);
        const isPublic = (op as { security?: unknown[] }).security?.length === 0;
        const res = await routes.call(m, url, {}, { headers: { origin: ORIGIN } });
        if (isPublic) expect(res.status, `${m} ${template}`).toBe(200);
        else {
          expect(res.status, `${m} ${template}`).toBe(401);
          expect(res.json).toMatchObject({ error: { code: "unauthenticated" } });
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it("[R77] text/plain and cross-origin writes are refused with nothing written", async () => {
    const before = await snapshot(aliceSession);
    const { database } = await services();
    const sessionsBefore = await database.db.session.count();
    const url = `/api/sessions/${aliceSession}/turns`;
    const body = JSON.stringify({ content: "forged", stream: false });

    const plain = await routes.call("POST", url, undefined, {
      raw: body,
      headers: { ...alice, "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    const form = await routes.call("POST", "/api/sessions", undefined, {
      raw: "title=x",
      headers: { ...alice, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const foreign = await routes.call("POST", url, undefined, {
      raw: body,
      headers: { ...alice, origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ error: { code: "cross_origin" } });
    const noOrigin = await routes.call("POST", url, undefined, {
      raw: body,
      headers: { cookie: alice["cookie"]! },
    });
    expect(noOrigin.status).toBe(403);
    const crossSite = await routes.call("DELETE", `/api/sessions/${aliceSession}`, undefined, {
      headers: { ...alice, "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const rebound = await routes.call("GET", `/api/sessions/${aliceSession}`, undefined, {
      headers: { ...alice, host: "attacker.example" },
    });
    expect(rebound.status).toBe(421);

    expect(await snapshot(aliceSession)).toBe(before);
    expect(await database.db.session.count()).toBe(sessionsBefore);
  });

  it("[R77] a body over the cap is refused before it is read", async () => {
    const big = JSON.stringify({ content: "x".repeat(5 * 1024 * 1024), stream: false });
    const res = await routes.call("POST", `/api/sessions/${aliceSession}/turns`, undefined, {
      raw: big,
      headers: alice,
    });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ error: { code: "payload_too_large" } });
  });

  it("[R78] API keys: shown once, work as Bearer, never from the URL, dead once revoked", async () => {
    const created = await routes.call("POST", "/api/keys", { name: "script" }, { headers: alice });
    expect(created.status).toBe(201);
    const key = created.json["key"] as string;
    expect(key).toMatch(/^spk_/);
    const { database } = await services();
    const stored = await database.db.apiKey.findUnique({
      where: { id: created.json["id"] as string },
    });
    expect(JSON.stringify(stored)).not.toContain(key);

    const bearer = { authorization: `Bearer ${key}` };
    const read = await routes.call("GET", `/api/sessions/${aliceSession}`, undefined, {
      headers: bearer,
    });
    expect(read.status).toBe(200);
    // A script sends no Origin: a key is not an ambient credential, so the write goes through.
    const write = await routes.call(
      "PATCH",
      `/api/sessions/${aliceSession}`,
      { title: "Via key" },
      {
        headers: bearer,
      },
    );
    expect(write.status).toBe(200);
    const listed = await routes.call("GET", "/api/keys", undefined, { headers: alice });
    expect(JSON.stringify(listed.json)).not.toContain(key);
    expect((listed.json["keys"] as unknown[]).length).toBe(1);

    const minted = await routes.call("POST", "/api/keys", { name: "x" }, { headers: bearer });
    expect(minted.status).toBe(403);
    const inUrl = await routes.call("GET", `/api/sessions?api_key=${key}`, undefined, {
      headers: {},
    });
    expect(inUrl.status).toBe(401);
    // Bob cannot revoke Alice's key.
    const bobRevoke = await routes.call(
      "DELETE",
      `/api/keys/${created.json["id"] as string}`,
      undefined,
      {
        headers: bob,
      },
    );
    expect(bobRevoke.status).toBe(404);

    const revoked = await routes.call(
      "DELETE",
      `/api/keys/${created.json["id"] as string}`,
      undefined,
      {
        headers: alice,
      },
    );
    expect(revoked.status).toBe(204);
    const after = await routes.call("GET", `/api/sessions/${aliceSession}`, undefined, {
      headers: bearer,
    });
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ error: { code: "unauthenticated" } });
  });

  it("[R76] better-auth endpoints Spindle does not use answer 404 (no admin impersonation)", async () => {
    for (const path of [
      "/api/auth/admin/impersonate-user",
      "/api/auth/admin/set-role",
      "/api/auth/admin/remove-user",
      "/api/auth/admin/update-user",
      "/api/auth/change-email",
    ]) {
      const res = await routes.call(
        "POST",
        path,
        { userId: "x", newPassword: "y" },
        {
          headers: alice,
        },
      );
      expect(res.status, path).toBe(404);
    }
  });

  it("[R79] a burst of parallel guesses gets no more than the limit through", async () => {
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) => signIn("dave@example.com", `burst-${i}`, `10.9.0.${i}`)),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.perAccount);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      25 - SIGN_IN_LIMITS.perAccount,
    );
  });

  it("[R79] sign-in: one answer for unknown user and wrong password; throttled after 10 failures", async () => {
    const unknown = await signIn("nobody@example.com", "whatever1", "10.0.0.7");
    const wrong = await signIn("bob@example.com", "not his password", "10.0.0.7");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
    for (let i = 2; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect((await signIn("carol@example.com", `guess-${i}`, `10.1.0.${i}`)).status).toBe(401);
    }
    // Two more failures for carol from elsewhere: the tenth, then the eleventh is refused.
    expect((await signIn("carol@example.com", "guess-a", "10.2.0.1")).status).toBe(401);
    expect((await signIn("carol@example.com", "guess-b", "10.2.0.2")).status).toBe(401);
    const blocked = await signIn("carol@example.com", "guess-c", "10.2.0.3");
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ error: { code: "too_many_attempts" } });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account is not locked out by carol's failures.
    expect((await signIn("bob@example.com", PASSWORD, "10.3.0.1")).status).toBe(200);
  });

  it("[R78] an expired sign-in answers 401", async () => {
    const fresh = await signIn("alice@example.com", PASSWORD, "10.5.0.1");
    expect(fresh.status).toBe(200);
    const headers = { origin: ORIGIN, cookie: cookieOf(fresh.headers) };
    expect((await routes.call("GET", "/api/sessions", undefined, { headers })).status).toBe(200);
    const { database } = await services();
    const token = fresh.json["token"] as string;
    await database.db.authSession.update({
      where: { token },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await routes.call("GET", "/api/sessions", undefined, { headers });
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({ error: { code: "unauthenticated" } });
  });

  it("[R78] a disabled account's cookie and keys stop working", async () => {
    const key = (await routes.call("POST", "/api/keys", { name: "bob" }, { headers: bob })).json[
      "key"
    ] as string;
    const { database } = await services();
    const bobRow = await database.db.user.findUniqueOrThrow({
      where: { email: "bob@example.com" },
    });
    const banned = await routes.call(
      "POST",
      "/api/auth/admin/ban-user",
      { userId: bobRow.id },
      { headers: alice },
    );
    expect(banned.status).toBe(200);
    for (const headers of [bob, { authorization: `Bearer ${key}` }]) {
      const res = await routes.call("GET", "/api/sessions", undefined, { headers });
      expect(res.status).toBe(401);
    }
    const again = await signIn("bob@example.com", PASSWORD, "10.4.0.1");
    expect(again.status).toBe(403);
    expect(again.json).toMatchObject({ error: { code: "banned_user" } });
  });
});
