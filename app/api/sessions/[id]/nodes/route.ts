import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

/** The whole ledger of the session, in insertion order. */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) =>
    Response.json({ nodes: await workspace.nodes(sessionIdParam((await ctx.params).id)) }),
  );
}
