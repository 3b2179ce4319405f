import { z } from "zod";
import { guarded } from "@/lib/http/guard";
import { nodeIdField, sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

const body = z.object({
  nodeId: nodeIdField,
  move: z.enum(["checkout", "rewind"]).default("checkout"),
});

/** Moves HEAD: checkout (any conversation node) or rewind (back along the spine). */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json }) => {
    const id = sessionIdParam((await ctx.params).id);
    const { nodeId, move } = await json(body);
    const session =
      move === "rewind" ? await workspace.rewind(id, nodeId) : await workspace.checkout(id, nodeId);
    return Response.json(session);
  });
}
