import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { forkSessionSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** A new session from a branch of this one, under a new system prompt ([R107]). */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession }) => {
    const id = await ownedSession(ctx.params);
    const session = await workspace.fork(id, await json(forkSessionSchema));
    return Response.json(session, { status: 201 });
  });
}
