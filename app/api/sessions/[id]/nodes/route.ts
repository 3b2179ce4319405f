import { handle } from "@/lib/http/respond";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

/** The whole ledger of the session, in insertion order. */
export function GET(_req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { store } = await services();
    return Response.json({ nodes: await store.nodes(id) });
  });
}
