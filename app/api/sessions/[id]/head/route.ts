import { z } from "zod";
import { handle, readJson } from "@/lib/http/respond";
import { nodeIdField, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

const body = z.object({
  nodeId: nodeIdField,
  move: z.enum(["checkout", "rewind"]).default("checkout"),
});

/** Moves HEAD: checkout (any conversation node) or rewind (back along the spine). */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { nodeId, move } = await readJson(req, body);
    const { dispatcher } = await services();
    const session =
      move === "rewind"
        ? await dispatcher.rewind(id, nodeId)
        : await dispatcher.checkout(id, nodeId);
    return Response.json(session);
  });
}
