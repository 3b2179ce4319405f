import { beforeAll, expect, it } from "vitest";
import { SIGN_IN_LIMITS } from "@/lib/auth/throttle";
import { services } from "@/lib/server/services";
import { describeEachDatabase } from "./support/databases";
import { cookieOf, ORIGIN, useApp, type Routes } from "./support/routes";

/**
 * Passwords ([R202]): a user changes their own (other devices signed out, throttled like a
 * sign-in), an admin sets another account's (which must then choose its own), both through
 * better-auth's endpoints behind Spindle's edge, on SQLite and PostgreSQL.
 */

const ADMIN_PASSWORD = "admin password one";
const PASSWORD = "first password one";

describeEachDatabase("[R202] passwords", (kind) => {
  let routes: Routes;
  let admin: Record<string, string>;
  let userIds: Record<string, string>;

  useApp(kind, { SPINDLE_ALLOW_SIGNUP: undefined }, (app) => ({ routes } = app));

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    routes.call("POST", path, body, { headers: { origin: ORIGIN, ...headers } });
  const signIn = (email: string, password: string, address = "10.0.0.1") =>
    post("/api/auth/sign-in/email", { email, password }, { "x-spindle-peer": address });
  const browser = async (email: string, password: string, address?: string) => {
    const res = await signIn(email, password, address);
    expect(res.status, `${email} signs in`).toBe(200);
    return { origin: ORIGIN, cookie: cookieOf(res.headers) };
  };
  const sessions = (headers: Record<string, string>) =>
    routes.call("GET", "/api/sessions", undefined, { headers });
  const change = (headers: Record<string, string>, currentPassword: string, newPassword: string) =>
    post("/api/auth/change-password", { currentPassword, newPassword }, headers);

  beforeAll(async () => {
    const first = await post(
      "/api/auth/sign-up/email",
      { email: "admin@example.com", password: ADMIN_PASSWORD, name: "Admin" },
      {},
    );
    expect(first.status).toBe(200);
    admin = { origin: ORIGIN, cookie: cookieOf(first.headers) };
    userIds = {};
    for (const name of ["erin", "frank", "grace"]) {
      const res = await post(
        "/api/auth/admin/create-user",
        { email: `${name}@example.com`, password: PASSWORD, name, role: "user" },
        admin,
      );
      expect(res.status).toBe(200);
      userIds[name] = (res.json["user"] as { id: string }).id;
    }
  });

  it("[R202] a change signs every other device out, keeps this one, and the new password works", async () => {
    const laptop = await browser("erin@example.com", PASSWORD, "10.1.0.1");
    const phone = await browser("erin@example.com", PASSWORD, "10.1.0.2");
    // Asking to keep the other devices signed in is not honoured.
    const res = await post(
      "/api/auth/change-password",
      { currentPassword: PASSWORD, newPassword: "second password", revokeOtherSessions: false },
      laptop,
    );
    expect(res.status).toBe(200);
    expect((await sessions(phone)).status).toBe(401);
    const renewed = { origin: ORIGIN, cookie: cookieOf(res.headers) };
    expect((await sessions(renewed)).status).toBe(200);
    expect((await signIn("erin@example.com", PASSWORD, "10.1.0.3")).status).toBe(401);
    expect((await signIn("erin@example.com", "second password", "10.1.0.4")).status).toBe(200);
  });

  it("[R202] bad input: a wrong current password is a 401 counted by the sign-in throttle", async () => {
    const me = await browser("frank@example.com", PASSWORD, "10.2.0.1");
    const wrong = await change(me, "not my password", "another password");
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({
      error: { code: "invalid_password", message: "The current password is not correct." },
    });
    expect((await change(me, PASSWORD, PASSWORD)).json).toMatchObject({
      error: { code: "invalid_request" },
    });
    expect((await change(me, PASSWORD, "short")).json).toMatchObject({
      error: { code: "invalid_request", message: expect.stringMatching(/at least 8/) },
    });
    expect((await post("/api/auth/change-password", { newPassword: "x" }, me)).status).toBe(400);
    const anonymous = await post(
      "/api/auth/change-password",
      { currentPassword: PASSWORD, newPassword: "whatever else" },
      {},
    );
    expect(anonymous.status).toBe(401);
    // The wrong guesses and the sign-in failures of the account share one budget: one wrong
    // so far, then up to the limit, and the next attempt of either kind is refused.
    for (let i = 2; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect((await change(me, `guess-${i}`, "another password")).status).toBe(401);
    }
    expect((await signIn("frank@example.com", "guess at sign-in", "10.2.0.2")).status).toBe(401);
    const blocked = await change(me, PASSWORD, "another password");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signIn("frank@example.com", PASSWORD, "10.2.0.3")).status).toBe(429);
  });

  it("[R202] an admin reset: sign-ins end, the next one must choose a password first, keys go on", async () => {
    const grace = await browser("grace@example.com", PASSWORD, "10.3.0.1");
    const key = (await post("/api/keys", { name: "script" }, grace)).json["key"] as string;
    const graceId = userIds["grace"] ?? "";

    // Only an admin, and never on their own account.
    const notAdmin = await post(
      "/api/auth/admin/set-user-password",
      { userId: userIds["erin"], newPassword: "x".repeat(9) },
      grace,
    );
    expect(notAdmin.status).toBe(403);
    const adminId = await idOf("admin@example.com");
    const self = await post(
      "/api/auth/admin/set-user-password",
      { userId: adminId, newPassword: "a new admin password" },
      admin,
    );
    expect(self.status).toBe(400);
    expect((await signIn("admin@example.com", ADMIN_PASSWORD, "10.3.0.9")).status).toBe(200);

    const reset = await post(
      "/api/auth/admin/set-user-password",
      { userId: graceId, newPassword: "temporary password" },
      admin,
    );
    expect(reset.status).toBe(200);
    expect((await sessions(grace)).status).toBe(401);
    expect((await signIn("grace@example.com", PASSWORD, "10.3.0.2")).status).toBe(401);

    const temporary = await browser("grace@example.com", "temporary password", "10.3.0.3");
    const refused = await sessions(temporary);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: "password_change_required" } });
    expect((await post("/api/sessions", {}, temporary)).status).toBe(403);
    // Her API key is a credential of its own: it keeps working.
    const scripted = await routes.call("GET", "/api/sessions", undefined, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(scripted.status).toBe(200);

    const chosen = await change(temporary, "temporary password", "graces own password");
    expect(chosen.status).toBe(200);
    const after = { origin: ORIGIN, cookie: cookieOf(chosen.headers) };
    expect((await sessions(after)).status).toBe(200);
    const { database } = await services();
    const row = await database.db.user.findUniqueOrThrow({ where: { id: graceId } });
    expect(row.mustChangePassword).toBe(false);
  });

  async function idOf(email: string): Promise<string> {
    const { database } = await services();
    return (await database.db.user.findUniqueOrThrow({ where: { email } })).id;
  }
});
