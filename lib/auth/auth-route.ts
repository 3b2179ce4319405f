import { z } from "zod";
import { clientView, PEER_HEADER } from "../http/client-address";
import { EngineError, type ErrorCode } from "../engine/errors";
import { errorBody } from "../http/status";
import { checkHost, checkJsonBody, checkOrigin, readBodyText } from "../http/edge";
import { errorResponse, handle } from "../http/respond";
import { parseJsonText } from "../http/json-text";
import { services } from "../server/services";
import { PASSWORD_LENGTH } from "./password-length";

/** Account requests are small; nothing under /api/auth needs more. */
const AUTH_BODY_LIMIT = 64 * 1024;

const credentials = z.object({ email: z.string().max(320) }).loose();
const passwordChange = z
  .object({
    currentPassword: z.string().max(PASSWORD_LENGTH.max),
    newPassword: z
      .string()
      .min(
        PASSWORD_LENGTH.min,
        `The new password needs at least ${PASSWORD_LENGTH.min} characters.`,
      )
      .max(
        PASSWORD_LENGTH.max,
        `The new password can have at most ${PASSWORD_LENGTH.max} characters.`,
      ),
  })
  .loose();
const bannedUser = z.object({ userId: z.string().min(1).max(100) }).loose();
const passwordReset = z.object({ userId: z.string().min(1).max(100) }).loose();

/**
 * The client's address, used only to group sign-in failures ([R146]): the connection's peer
 * as scripts/serve.ts recorded it, or — when that peer is one of `SPINDLE_TRUSTED_PROXIES` —
 * the client that proxy reports in `X-Forwarded-For`. A client's own `X-Forwarded-For` is
 * never believed.
 */
function addressOf(req: Request, trusted: readonly string[]): string {
  return clientView(req.headers, req.headers.get(PEER_HEADER), trusted).address;
}

/** The catalogue code for a better-auth error answer that says nothing itself. */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return "unauthenticated";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "too_many_attempts";
  return status >= 500 ? "internal" : "invalid_request";
}

/**
 * better-auth answers `{code, message}`; Spindle's API answers `{error:{code,message}}`. An
 * error with an empty or non-JSON body (an anonymous `GET /admin/list-users` is a bare 401)
 * gets the catalogue's words for its status, never a parse error's 500 ([R143]).
 */
async function reshapeError(res: Response): Promise<Response> {
  if (res.ok || res.status < 400) return res;
  let body: { code?: unknown; message?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(await res.clone().text());
    if (parsed && typeof parsed === "object") body = parsed as typeof body;
  } catch {
    // No JSON body: the status alone speaks.
  }
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  headers.delete("content-type");
  if (typeof body.message !== "string" || body.message === "") {
    const code = codeForStatus(res.status);
    return Response.json(errorBody({ code, message: new EngineError(code).message }), {
      status: res.status,
      headers,
    });
  }
  const code = typeof body.code === "string" ? body.code.toLowerCase() : "auth_error";
  return Response.json({ error: { code, message: body.message } }, { status: res.status, headers });
}

/**
 * The better-auth endpoints Spindle uses, and so serves: everything else it ships (admin
 * impersonation, setting another user's password or email, removing users, …) answers 404.
 * An admin administers accounts; reading other people's conversations is not part of it.
 * Setting another account's password is (a forgotten password has no other way back): the
 * account must then choose its own at next sign-in ([R202]).
 */
const ENDPOINTS = new Set([
  "GET /get-session",
  "POST /sign-up/email",
  "POST /sign-in/email",
  "POST /sign-out",
  "GET /admin/list-users",
  "POST /admin/create-user",
  "POST /admin/ban-user",
  "POST /admin/unban-user",
  "POST /change-password",
  "POST /admin/set-user-password",
]);

const BASE = "/api/auth";

function tooMany(what: string, wait: number): Response {
  const res = errorResponse(
    "too_many_attempts",
    `Too many ${what}; try again in ${Math.ceil(wait / 60)} minute(s).`,
  );
  res.headers.set("retry-after", String(wait));
  return res;
}

/**
 * `/api/auth/*`: the better-auth endpoints Spindle uses, behind its edge checks. Sign-in
 * attempts are throttled per account and per address, sign-ups per address; while sign-up
 * is closed it is refused before better-auth looks the email up (one answer for every
 * address, no password hashed).
 */
export function authRoute(req: Request): Promise<Response> {
  return handle(async () => {
    const { accounts, config, throttle, database, gate } = await services();
    checkHost(req, config);
    const path = new URL(req.url).pathname.slice(BASE.length);
    if (!ENDPOINTS.has(`${req.method} ${path}`)) {
      throw new EngineError("not_found", "No such account endpoint.");
    }
    if (req.method === "GET") return reshapeError(await accounts.handler(req));
    checkJsonBody(req);
    // Every account write comes from this server's pages (a forged sign-in is an attack too).
    checkOrigin(req, "cookie", config);
    const text = await readBodyText(req, AUTH_BODY_LIMIT);
    const body = parseJsonText(text);
    const address = addressOf(req, config.trustedProxies);
    let email: string | null = null;
    if (path === "/sign-up/email") {
      if (!config.allowSignup && (await database.db.user.count()) > 0) {
        throw new EngineError("signup_closed");
      }
      const wait = await throttle.signUp(address);
      if (wait > 0) return tooMany("sign-ups from this address", wait);
    } else if (path === "/sign-in/email") {
      const parsed = credentials.safeParse(body);
      if (!parsed.success) throw new EngineError("invalid_request", "Send {email, password}.");
      email = parsed.data.email;
      const wait = await throttle.attempt(email, address);
      if (wait > 0) return tooMany("failed sign-ins", wait);
    } else if (path === "/change-password") {
      return changePassword(req, body, address);
    } else if (path === "/admin/set-user-password") {
      return setUserPassword(req, body, text);
    }
    // A sign-out ends what this sign-in started; a ban everything of the account ([R147]).
    const signingOut =
      path === "/sign-out" ? await accounts.api.getSession({ headers: req.headers }) : null;
    const forwarded = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: text,
    });
    const res = await accounts.handler(forwarded);
    if (email !== null && res.ok) await throttle.succeeded(email, address);
    if (res.ok && signingOut) {
      gate.revoke({
        ownerId: signingOut.user.id,
        credentials: [`session:${signingOut.session.id}`],
      });
    }
    if (res.ok && path === "/admin/ban-user") {
      const banned = bannedUser.safeParse(body);
      if (banned.success) gate.revoke({ ownerId: banned.data.userId });
    }
    return reshapeError(res);
  });
}

/** The same request with another JSON body (headers kept: cookie, Origin, Host). */
function withBody(req: Request, body: unknown): Request {
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return new Request(req.url, { method: req.method, headers, body: JSON.stringify(body) });
}

/**
 * `POST /change-password` ([R202]): the signed-in account's own password. The current one is
 * checked like a sign-in — its points are taken first and count with the account's failed
 * sign-ins, a success gives them back — and a wrong one is a 401. Every other device is
 * signed out (`revokeOtherSessions` is always on); this browser gets a fresh sign-in. A
 * password an admin set is no longer temporary afterwards.
 */
async function changePassword(req: Request, body: unknown, address: string): Promise<Response> {
  const { accounts, throttle, database, gate } = await services();
  // Checked before a point is taken: a malformed request says nothing about the password.
  const parsed = passwordChange.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError(
      "invalid_request",
      issue?.path[0] === "newPassword" && issue.code !== "invalid_type"
        ? issue.message
        : "Send {currentPassword, newPassword}.",
    );
  }
  const signedIn = await accounts.api.getSession({ headers: req.headers });
  if (!signedIn) throw new EngineError("unauthenticated");
  const { currentPassword, newPassword } = parsed.data;
  if (newPassword === currentPassword) {
    throw new EngineError("invalid_request", "The new password must differ from the current one.");
  }
  const email = signedIn.user.email;
  const wait = await throttle.attempt(email, address);
  if (wait > 0) return tooMany("wrong passwords", wait);
  const res = await accounts.handler(
    withBody(req, { currentPassword, newPassword, revokeOtherSessions: true }),
  );
  if (res.status === 400 && (await codeOf(res)) === "INVALID_PASSWORD") {
    return errorResponse("invalid_password", "The current password is not correct.");
  }
  if (res.ok) {
    await throttle.succeeded(email, address);
    await database.db.user.update({
      where: { id: signedIn.user.id },
      data: { mustChangePassword: false },
    });
    // The other devices' sign-ins ended: so does what they were running ([R147]).
    gate.revoke({
      ownerId: signedIn.user.id,
      cookiesExcept: [`session:${signedIn.session.id}`],
    });
  }
  return reshapeError(res);
}

/**
 * `POST /admin/set-user-password` ([R202]): better-auth checks the caller is an admin; the
 * account's sign-ins end and it must choose its own password when it signs in again. An
 * admin changes their own password with the current one, never through this.
 */
async function setUserPassword(req: Request, body: unknown, text: string): Promise<Response> {
  const { accounts, database, gate } = await services();
  const parsed = passwordReset.safeParse(body);
  if (!parsed.success) throw new EngineError("invalid_request", "Send {userId, newPassword}.");
  const signedIn = await accounts.api.getSession({ headers: req.headers });
  if (signedIn?.user.id === parsed.data.userId) {
    throw new EngineError(
      "invalid_request",
      "Change your own password on the Account page, with your current one.",
    );
  }
  const forwarded = new Request(req.url, { method: req.method, headers: req.headers, body: text });
  const res = await accounts.handler(forwarded);
  if (res.ok) {
    const { userId } = parsed.data;
    await database.db.user.update({ where: { id: userId }, data: { mustChangePassword: true } });
    await accounts.api.revokeUserSessions({ body: { userId }, headers: req.headers });
    gate.revoke({ ownerId: userId, cookiesExcept: [] });
  }
  return reshapeError(res);
}

/** better-auth's error code of a JSON error answer, if any. */
async function codeOf(res: Response): Promise<string | null> {
  try {
    const body = (await res.clone().json()) as { code?: unknown };
    return typeof body.code === "string" ? body.code : null;
  } catch {
    return null;
  }
}
