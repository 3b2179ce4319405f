import { NextResponse, type NextRequest } from "next/server";
import { parseConfig } from "./lib/config/env";
import { NONCE_HEADER, newNonce, pagePolicy } from "./lib/http/csp";
import {
  ALLOWED_METHODS,
  isAllowedHost,
  methodNotAllowedBody,
  misdirectedBody,
  requestHost,
} from "./lib/http/edge";

let publicUrl: string | undefined | null = null;

const refuse = (status: number, code: string, message: string) =>
  NextResponse.json({ error: { code, message } }, { status });

/**
 * The first check of every request, pages included: the Host must name this server, so a
 * DNS-rebinding page (its own domain pointed at 127.0.0.1) cannot read anything (route
 * handlers repeat the check in their guard, lib/http/guard.ts); an unknown method or a path
 * that does not percent-decode is a clear 405/400 instead of a crash further in. A page gets
 * its Content Security Policy here, with a fresh script nonce ([R149]).
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
    return refuse(400, "invalid_request", "The path is not valid percent-encoded UTF-8.");
  }
  if (req.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
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
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
