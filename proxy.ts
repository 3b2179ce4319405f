import { NextResponse, type NextRequest } from "next/server";
import { parseConfig } from "./lib/config/env";
import { NONCE_HEADER, newNonce, pagePolicy } from "./lib/http/csp";
import {
  ALLOWED_METHODS,
  isAllowedHost,
  methodNotAllowedBody,
  misdirectedBody,
  requestHost,
  undecodablePathBody,
} from "./lib/http/edge";

let publicUrl: string | undefined | null = null;

/**
 * The pages' proxy: a page gets its Content Security Policy here, with a fresh script nonce
 * ([R149]). Under `npm start` the edge checks — the Host names this server (so a
 * DNS-rebinding page cannot read anything), a known method, a path that percent-decodes —
 * ran in scripts/serve.ts before the request reached Next; they are repeated here for
 * `next dev`. `/api/` is not matched: the route guard (lib/http/guard.ts) checks the Host of
 * every API request itself, and running the proxy costs each one ~2 ms (docs/benchmarks.md,
 * P3).
 */
export function proxy(req: NextRequest) {
  if (publicUrl === null) publicUrl = parseConfig(process.env).publicUrl;
  if (!isAllowedHost(requestHost(req), publicUrl)) {
    return NextResponse.json(misdirectedBody(), { status: 421 });
  }
  if (!ALLOWED_METHODS.has(req.method)) {
    return NextResponse.json(methodNotAllowedBody(req.method), {
      status: 405,
      headers: { allow: [...ALLOWED_METHODS].join(", ") },
    });
  }
  try {
    decodeURIComponent(req.nextUrl.pathname);
  } catch {
    return NextResponse.json(undecodablePathBody(), { status: 400 });
  }
  // Next.js finds the nonce in the request's policy and sets it on its own scripts; the
  // layout reads it from NONCE_HEADER for the theme script. Only the proxy writes either
  // header: a client's copy of them is overwritten here.
  const nonce = newNonce();
  const policy = pagePolicy(nonce, process.env.NODE_ENV !== "production");
  const headers = new Headers(req.headers);
  headers.set(NONCE_HEADER, nonce);
  headers.set("content-security-policy", policy);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", policy);
  return res;
}

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
