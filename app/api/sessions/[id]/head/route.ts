import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { headMoveSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** Moves HEAD: checkout (any conversation node) or rewind (back along the spine). */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession }) => {
    const id = await ownedSession(ctx.params);
    return Response.json(await workspace.moveHead(id, await json(headMoveSchema)));
  });
}
