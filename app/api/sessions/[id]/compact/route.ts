import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

/** Manual compaction of HEAD's branch (`/compact`). */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) =>
    Response.json(await workspace.compact(sessionIdParam((await ctx.params).id))),
  );
}
