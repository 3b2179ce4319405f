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
 * `/api/auth/*`: better-auth's endpoints behind Spindle's edge checks, with sign-in
 * attempts throttled per account, per address and server-wide (429 past the limit).
 */
export function authRoute(req: Request): Promise<Response> {
  return handle(async () => {
    const { accounts, config, throttle } = await services();
    checkHost(req, config);
    if (req.method === "GET") return reshapeError(await accounts.handler(req));
    checkJsonBody(req);
    // Every account write comes from this server's pages (a forged sign-in is an attack too).
    checkOrigin(req, "cookie");
    const text = await readBodyText(req, AUTH_BODY_LIMIT);
    const body = parseJsonText(text);
    const path = new URL(req.url).pathname;
    const signIn = path.endsWith("/sign-in/email");
    let email = "";
    if (signIn) {
      const parsed = credentials.safeParse(body);
      if (!parsed.success) throw new EngineError("invalid_request", "Send {email, password}.");
      email = parsed.data.email;
      const wait = await throttle.retryAfter(email, addressOf(req));
      if (wait > 0) {
        const res = errorResponse(
          "too_many_attempts",
          `Too many failed sign-ins; try again in ${Math.ceil(wait / 60)} minute(s).`,
        );
        res.headers.set("retry-after", String(wait));
        return res;
      }
    }
    const forwarded = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: text,
    });
    const res = await accounts.handler(forwarded);
    if (signIn) {
      if (res.status === 401 || res.status === 403) await throttle.failed(email, addressOf(req));
      else if (res.ok) await throttle.succeeded(email);
    }
    return reshapeError(res);
  });
}
