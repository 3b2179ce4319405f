import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

/** The graph wire contract (compaction.md §6). */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) =>
    Response.json(await workspace.graph(sessionIdParam((await ctx.params).id))),
  );
}
