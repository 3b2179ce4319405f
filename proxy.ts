import { NextResponse, type NextRequest } from "next/server";
import { parseConfig } from "./lib/config/env";
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
 * that does not percent-decode is a clear 405/400 instead of a crash further in.
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
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
