import { guarded } from "@/lib/http/guard";
import { turnSchema } from "@/lib/http/schemas";
import { turnAnswer, turnResultResponse, releasing } from "@/lib/http/turn-response";
import { type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

/**
 * Runs a turn. The SSE form streams `node`, `delta`, then `done` or `error`; `"stream":
 * false` answers the finished `{user, reply}`. Closing the request is the user's Stop: the
 * reply is sealed `interrupted` with the text streamed so far.
 */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession, track }) => {
    const sessionId = await ownedSession(ctx.params);
    const input = await json(turnSchema);
    // A revoked sign-in or key (or a disabled account) stops it like Stop ([R147]).
    const work = track();
    const turn = releasing(
      workspace.turn({
        sessionId,
        mode: input.mode,
        content: input.content,
        parentId: input.parentId,
        targetId: input.targetId,
        model: input.model,
        models: input.models,
        attachments: input.attachments,
        signal: work.signal,
      }),
      work.release,
    );
    return turnAnswer(turn, input.stream, turnResultResponse);
  });
}
