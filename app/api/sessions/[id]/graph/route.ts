import { handle } from "@/lib/http/respond";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

/** The graph wire contract (compaction.md §6). */
export function GET(_req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { dispatcher } = await services();
    return Response.json(await dispatcher.graph(id));
  });
}
