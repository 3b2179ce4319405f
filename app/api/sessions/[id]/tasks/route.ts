import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { taskSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** Spawns a same-session sub-agent turn; HEAD moves only by the caller's own rules. */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession, track }) => {
    const id = await ownedSession(ctx.params);
    const { prompt, callerId } = await json(taskSchema);
    const work = track();
    try {
      return Response.json(
        await workspace.spawn({ sessionId: id, prompt, callerId, signal: work.signal }),
      );
    } finally {
      work.release();
    }
  });
}
