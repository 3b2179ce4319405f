import { handle } from "@/lib/http/respond";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

/** Manual compaction of HEAD's branch (`/compact`). */
export function POST(_req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { store, compactor } = await services();
    return Response.json(await compactor.compact(await store.getSession(id)));
  });
}
