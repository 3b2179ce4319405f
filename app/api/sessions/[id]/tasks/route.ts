import { z } from "zod";
import { handle, readJson } from "@/lib/http/respond";
import { nodeIdField, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

const body = z.object({ prompt: z.string(), callerId: nodeIdField.optional() });

/** Spawns a same-session sub-agent turn; HEAD moves only by the caller's own rules. */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { prompt, callerId } = await readJson(req, body);
    const { dispatcher } = await services();
    return Response.json(
      await dispatcher.spawn({ sessionId: id, prompt, callerId, signal: req.signal }),
    );
  });
}
