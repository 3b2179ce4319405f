import { NextResponse, type NextRequest } from "next/server";
import { parseConfig } from "./lib/config/env";
import { isAllowedHost, requestHost } from "./lib/http/edge";

let publicUrl: string | undefined | null = null;

/**
 * The first check of every request, pages included: the Host must name this server, so a
 * DNS-rebinding page (its own domain pointed at 127.0.0.1) cannot read anything. Route
 * handlers repeat the check in their guard (lib/http/guard.ts).
 */
export function proxy(req: NextRequest) {
  if (publicUrl === null) publicUrl = parseConfig(process.env).publicUrl;
  if (!isAllowedHost(requestHost(req), publicUrl)) {
    return NextResponse.json(
      {
        error: {
          code: "misdirected_request",
          message:
            "This server does not answer for that host name; set SPINDLE_PUBLIC_URL to the address users open.",
        },
      },
      { status: 421 },
    );
  }
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
