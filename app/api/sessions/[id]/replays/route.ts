import { guarded } from "@/lib/http/guard";
import { replaySchema } from "@/lib/http/schemas";
import { replayResultResponse, turnAnswer, releasing } from "@/lib/http/turn-response";
import { type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

/**
 * Replays a reply (issue 22): its recorded prompt sent again, the answer a new sibling
 * reply; HEAD does not move. The SSE form streams `node`, `delta`, then `done` or `error`,
 * as a turn does; `"stream": false` answers the sealed reply (201 `{reply}`).
 */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession, track }) => {
    const sessionId = await ownedSession(ctx.params);
    const input = await json(replaySchema);
    // A revoked sign-in or key (or a disabled account) stops it like Stop ([R147]).
    const work = track();
    const replay = releasing(
      workspace.replay({
        sessionId,
        nodeId: input.nodeId,
        model: input.model,
        expand: input.expand,
        signal: work.signal,
      }),
      work.release,
    );
    return turnAnswer(replay, input.stream, replayResultResponse);
  });
}
