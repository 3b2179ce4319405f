import { z } from "zod";
import { EngineError } from "../engine/errors";
import { checkHost, checkJsonBody, checkOrigin, readBodyText } from "../http/edge";
import { errorResponse, handle } from "../http/respond";
import { services } from "../server/services";

/** Account requests are small; nothing under /api/auth needs more. */
const AUTH_BODY_LIMIT = 64 * 1024;

const credentials = z.object({ email: z.string().max(320) }).loose();

/**
 * The client's address as the server saw it: the rightmost `X-Forwarded-For` entry (the one
 * Next's server or the nearest proxy added). Used only to group sign-in failures.
 */
function addressOf(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for");
  return forwarded?.split(",").at(-1)?.trim() || "unknown";
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
    const path = new URL(req.url).pathname;
    const signIn = path.endsWith("/sign-in/email");
    let email = "";
    if (signIn) {
      const parsed = credentials.safeParse(safeJson(text));
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
