import type { Config } from "../config/env";
import { EngineError } from "../engine/errors";
import { clientView, PEER_HEADER } from "./client-address";

/**
 * The checks every request passes before anything reads a session (docs/security.md):
 * the Host names this server (stops DNS rebinding), state-changing requests carry a body
 * type a cross-site form cannot send, and a browser's state-changing request comes from
 * this server's own pages (stops cross-site request forgery).
 */

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`). */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d+$/, "");
}

/**
 * Host names this server answers for: `localhost`, any IP literal (a rebinding attack needs
 * a domain name the attacker controls, so a literal address can only be this server), and
 * the host of `SPINDLE_PUBLIC_URL`.
 */
export function isAllowedHost(host: string, publicUrl: string | undefined): boolean {
  // A Host no URL can be built from (`999.999.999.999`, a bad port) is nobody's: 421, not a
  // crash where a URL is made of it ([R143]).
  let parsed: URL;
  try {
    parsed = new URL(`http://${host.trim()}`);
  } catch {
    return false;
  }
  if (parsed.host !== host.trim().toLowerCase().replace(/:80$/, "")) return false;
  const name = hostnameOf(host);
  if (name === "localhost" || IPV4.test(name) || /^\[[0-9a-f:.]+\]$/.test(name)) return true;
  return publicUrl !== undefined && name === new URL(publicUrl).hostname.toLowerCase();
}

/** What the 421 for a Host this server does not answer for says, wherever it is refused. */
const MISDIRECTED_MESSAGE =
  "This server does not answer for that host name; set SPINDLE_PUBLIC_URL to the address users open.";

/** The body of the 421 for a Host this server does not answer for. */
export function misdirectedBody() {
  return { error: { code: "misdirected_request", message: MISDIRECTED_MESSAGE } };
}

/** The `Host` the request was sent to. */
export function requestHost(req: Request): string {
  return req.headers.get("host") ?? new URL(req.url).host;
}

export function checkHost(req: Request, config: Pick<Config, "publicUrl">): void {
  if (!isAllowedHost(requestHost(req), config.publicUrl)) {
    throw new EngineError("misdirected_request", MISDIRECTED_MESSAGE);
  }
}

/**
 * The methods some route answers. Anything else (TRACE, CONNECT, WebDAV verbs…) is refused
 * with 405 before it reaches a handler: by scripts/serve.ts in production, by proxy.ts
 * under `next dev`/`next start`.
 */
export const ALLOWED_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
]);

/** The body of that 405. */
export function methodNotAllowedBody(method: string) {
  return { error: { code: "method_not_allowed", message: `${method} is not allowed.` } };
}

/** The body of the 400 for a path that does not percent-decode. */
export function undecodablePathBody() {
  return {
    error: { code: "invalid_request", message: "The path is not valid percent-encoded UTF-8." },
  };
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase());
}

/**
 * A JSON route's write must say `application/json`: the one type a cross-site `<form>` or a
 * `no-cors` fetch cannot send without a CORS preflight (which this server never grants).
 */
export function checkJsonBody(req: Request, accept: "json" | "multipart" = "json"): void {
  const method = req.method.toUpperCase();
  if (method !== "POST" && method !== "PUT" && method !== "PATCH") return;
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  const wanted = accept === "multipart" ? "multipart/form-data" : "application/json";
  if (type !== wanted) {
    throw new EngineError(
      "unsupported_media_type",
      `Send the body as ${wanted} (got ${type ? JSON.stringify(type) : "no content-type"}).`,
    );
  }
}

/** Room for the multipart framing around a file (boundaries, part headers). */
const MULTIPART_SLACK = 64 * 1024;

/**
 * The one file of an upload (`multipart/form-data`, field `file`), refused with 413 past
 * `limit` bytes — by the declared length before reading, by counting while reading — and
 * with 400 when the body is not a form with exactly that one file.
 */
export async function readUploadedFile(
  req: Request,
  limit: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  const tooBig = () =>
    new EngineError(
      "attachment_too_large",
      `The file is larger than the limit of ${limit.toLocaleString("en")} bytes.`,
    );
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit + MULTIPART_SLACK) throw tooBig();
  const chunks: Uint8Array[] = [];
  if (req.body) {
    const reader = req.body.getReader();
    let size = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit + MULTIPART_SLACK) {
        await reader.cancel();
        throw tooBig();
      }
      chunks.push(value);
    }
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new EngineError("invalid_request", "The body is not a valid multipart/form-data form.");
  }
  const files = form.getAll("file");
  const file = files[0];
  if (files.length !== 1 || file === undefined || typeof file === "string") {
    throw new EngineError("invalid_request", "Send exactly one file, in the form field `file`.");
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > limit) throw tooBig();
  return { name: file.name, bytes };
}

/** What the Origin check needs of the configuration. */
export type OriginConfig = Pick<Config, "publicUrl" | "trustedProxies">;

/**
 * Whether `origin` is this server's own, compared in full — scheme, host and port ([R142]):
 * `SPINDLE_PUBLIC_URL`'s origin, or the origin the request was sent to. That is its `Host`
 * over `http:` (this server speaks plain HTTP) — or over `SPINDLE_PUBLIC_URL`'s scheme when
 * `Host` is that URL's host — unless a trusted proxy ([R146]) says which host and scheme the
 * client used (`X-Forwarded-Host`, `X-Forwarded-Proto`).
 */
export function isOwnOrigin(origin: string, req: Request, config: OriginConfig): boolean {
  return isOwnOriginOf(origin, req.headers, config, requestHost(req));
}

/** {@link isOwnOrigin} from headers alone (server actions have no Request). */
export function isOwnOriginOf(
  origin: string,
  headers: Headers,
  config: OriginConfig,
  fallbackHost = "",
): boolean {
  let claimed: string;
  try {
    claimed = new URL(origin).origin;
  } catch {
    return false;
  }
  if (claimed === "null") return false;
  const pub = config.publicUrl === undefined ? undefined : new URL(config.publicUrl);
  if (pub !== undefined && claimed === pub.origin) return true;
  const view = clientView(headers, headers.get(PEER_HEADER), config.trustedProxies);
  const host = (view.host ?? fallbackHost).toLowerCase();
  const scheme =
    view.proto ?? (pub !== undefined && pub.host.toLowerCase() === host ? pub.protocol : "http:");
  try {
    return claimed === new URL(`${scheme}//${host}`).origin;
  } catch {
    return false;
  }
}

/**
 * A state-changing request made with ambient credentials (a cookie, or single-user mode where
 * the address alone grants access) must come from this server's own origin. Browsers send
 * `Origin` on every such request; scripts send none, and are allowed without one only when
 * no cookie vouches for them.
 */
export function checkOrigin(
  req: Request,
  ambient: "cookie" | "local" | "none",
  config: OriginConfig,
): void {
  if (!isStateChanging(req.method) || ambient === "none") return;
  const site = req.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    throw new EngineError("cross_origin");
  }
  const origin = req.headers.get("origin");
  if (origin === null) {
    if (ambient === "cookie") throw new EngineError("cross_origin");
    return;
  }
  if (!isOwnOrigin(origin, req, config)) throw new EngineError("cross_origin");
}

/**
 * Reads a request body as text, refusing it with 413 past `limit` bytes — by its declared
 * length before reading, and by counting while reading (a chunked body declares none).
 */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(limit: number): EngineError {
  return new EngineError(
    "payload_too_large",
    `The request body is larger than ${limit.toLocaleString("en")} bytes.`,
  );
}
