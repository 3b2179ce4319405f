import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { taskSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** Spawns a same-session sub-agent turn; HEAD moves only by the caller's own rules. */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json }) => {
    const id = sessionIdParam((await ctx.params).id);
    const { prompt, callerId } = await json(taskSchema);
    return Response.json(
      await workspace.spawn({ sessionId: id, prompt, callerId, signal: req.signal }),
    );
  });
}
