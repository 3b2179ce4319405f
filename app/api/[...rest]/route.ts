import { publicRoute } from "@/lib/http/guard";
import { errorResponse } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * Any `/api/` path no route claims, whatever the method ([R275]): the API's JSON 404, not
 * the HTML page a browser gets. Next tries every other route first (a catch-all matches
 * last), and `proxy.ts` / `scripts/serve.ts` have already refused a bad Host (421) or an
 * unknown method (405); the Host is checked again here, as every route does.
 */
function notFound(req: Request) {
  return publicRoute(req, async () =>
    errorResponse(
      "not_found",
      `No endpoint ${req.method} ${new URL(req.url).pathname.slice(0, 200)}.`,
    ),
  );
}

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
