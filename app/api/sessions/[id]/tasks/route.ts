import { z } from "zod";
import { guarded } from "@/lib/http/guard";
import { nodeIdField, sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

const body = z.object({ prompt: z.string(), callerId: nodeIdField.optional() });

/** Spawns a same-session sub-agent turn; HEAD moves only by the caller's own rules. */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json }) => {
    const id = sessionIdParam((await ctx.params).id);
    const { prompt, callerId } = await json(body);
    return Response.json(
      await workspace.spawn({ sessionId: id, prompt, callerId, signal: req.signal }),
    );
  });
}
