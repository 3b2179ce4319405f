import { guarded } from "@/lib/http/guard";
import { nodeIdParam, sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

/**
 * Deletes the branch whose tip is `nodeId`; answers the session (HEAD may have moved) with
 * `removed`, the ids it removed.
 */
export function DELETE(req: Request, ctx: RouteContext<"id" | "nodeId">) {
  return guarded(req, async ({ workspace }) => {
    const params = await ctx.params;
    return Response.json(
      await workspace.deleteBranch(sessionIdParam(params.id), nodeIdParam(params.nodeId)),
    );
  });
}
