import { handle } from "@/lib/http/respond";
import { nodeIdParam, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

/** Deletes the branch whose tip is `nodeId`; answers the session (HEAD may have moved). */
export function DELETE(_req: Request, ctx: RouteContext<"id" | "nodeId">) {
  return handle(async () => {
    const params = await ctx.params;
    const id = sessionIdParam(params.id);
    const nodeId = nodeIdParam(params.nodeId);
    const { dispatcher } = await services();
    return Response.json(await dispatcher.deleteBranch(id, nodeId));
  });
}
