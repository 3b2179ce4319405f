import { guarded } from "@/lib/http/guard";
import { turnResultResponse } from "@/lib/http/turn-response";
import { type RouteContext } from "@/lib/http/params";
import { sendSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** A cross-session send: a turn at the target's HEAD, which it advances. */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession, track }) => {
    const id = await ownedSession(ctx.params);
    const { targetSessionId, content } = await json(sendSchema);
    const work = track();
    try {
      const result = await workspace.sendToSession({
        sourceSessionId: id,
        targetSessionId,
        content,
        signal: work.signal,
      });
      return turnResultResponse(result);
    } finally {
      work.release();
    }
  });
}
