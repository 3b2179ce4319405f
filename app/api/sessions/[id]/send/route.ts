import { z } from "zod";
import { handle, readJson } from "@/lib/http/respond";
import { turnResultResponse } from "@/lib/http/turn-response";
import { sessionIdField, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

const body = z.object({ targetSessionId: sessionIdField, content: z.string() });

/** A cross-session send: a turn at the target's HEAD, which it advances. */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { targetSessionId, content } = await readJson(req, body);
    const { dispatcher } = await services();
    const result = await dispatcher.sendToSession({
      sourceSessionId: id,
      targetSessionId,
      content,
      signal: req.signal,
    });
    return turnResultResponse(result);
  });
}
