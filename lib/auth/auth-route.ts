import { z } from "zod";
import { isLoopbackHost } from "../config/env";
import { EngineError } from "../engine/errors";
import { checkHost, checkJsonBody, checkOrigin, readBodyText } from "../http/edge";
import { errorResponse, handle } from "../http/respond";
import { parseJsonText } from "../http/json-text";
import { services } from "../server/services";

/** Account requests are small; nothing under /api/auth needs more. */
const AUTH_BODY_LIMIT = 64 * 1024;

const credentials = z.object({ email: z.string().max(320) }).loose();

/**
 * The client's address, used only to group sign-in failures: the connection's peer as
 * scripts/serve.ts recorded it, or — when that peer is a reverse proxy on this machine — the
 * address that proxy appended to `X-Forwarded-For` (the rightmost entry; a client can forge
 * the entries before it, never that one).
 */
function addressOf(req: Request): string {
  const peer = req.headers.get("x-spindle-peer") ?? "";
  const forwarded = req.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  if (forwarded && (peer === "" || isLoopbackHost(peer.replace(/^::ffff:/, "")))) {
    return forwarded;
  }
  return peer || "unknown";
}

/** better-auth answers `{code, message}`; Spindle's API answers `{error:{code,message}}`. */
async function reshapeError(res: Response): Promise<Response> {
  if (res.ok || !res.headers.get("content-type")?.includes("application/json")) return res;
  const body = (await res.clone().json()) as { code?: unknown; message?: unknown };
  if (typeof body.message !== "string") return res;
  const code = typeof body.code === "string" ? body.code.toLowerCase() : "auth_error";
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return Response.json({ error: { code, message: body.message } }, { status: res.status, headers });
}

/**
 * The better-auth endpoints Spindle uses, and so serves: everything else it ships (admin
 * impersonation, setting another user's password or email, removing users, …) answers 404.
 * An admin administers accounts; reading other people's conversations is not part of it.
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
    const { accounts, config, throttle, database } = await services();
    checkHost(req, config);
    const path = new URL(req.url).pathname.slice(BASE.length);
    if (!ENDPOINTS.has(`${req.method} ${path}`)) {
      throw new EngineError("not_found", "No such account endpoint.");
    }
    if (req.method === "GET") return reshapeError(await accounts.handler(req));
    checkJsonBody(req);
    // Every account write comes from this server's pages (a forged sign-in is an attack too).
    checkOrigin(req, "cookie", config.publicUrl);
    const text = await readBodyText(req, AUTH_BODY_LIMIT);
    const body = parseJsonText(text);
    const address = addressOf(req);
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
    }
    const forwarded = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: text,
    });
    const res = await accounts.handler(forwarded);
    if (email !== null && res.ok) await throttle.succeeded(email, address);
    return reshapeError(res);
  });
}
