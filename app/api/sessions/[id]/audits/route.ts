import { guarded } from "@/lib/http/guard";
import { releasing } from "@/lib/http/turn-response";
import { type RouteContext } from "@/lib/http/params";
import { auditRequestSchema, auditsQuerySchema } from "@/lib/http/schemas";
import { sseResponse } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

/** The session's audits of summaries, newest first (`?summaryId=` narrows to one summary). */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, ownedSession }) => {
    const sessionId = await ownedSession(ctx.params);
    const query = auditsQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json({ audits: await workspace.audits(sessionId, query.summaryId) });
  });
}

/**
 * "Audit this summary": 201 with the stored audit, or an SSE stream of its progress. Closing
 * the request stops the audit; nothing is stored then.
 */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession, track }) => {
    const sessionId = await ownedSession(ctx.params);
    const input = await json(auditRequestSchema);
    // A revoked sign-in or key (or a disabled account) stops it like Stop ([R147]).
    const work = track();
    const run = releasing(
      workspace.audit(sessionId, {
        summaryId: input.summaryId,
        mode: input.mode,
        model: input.model,
        judgeModel: input.judgeModel,
        signal: work.signal,
      }),
      work.release,
    );
    // Ownership, the summary and the originals' size are checked before the first event:
    // a refused audit answers a plain JSON error, not a stream.
    const first = await run.next();
    if (!input.stream) {
      let step = first;
      while (!step.done) step = await run.next();
      return Response.json({ audit: step.value }, { status: 201 });
    }
    return sseResponse(async (send) => {
      let step = first;
      while (!step.done) {
        send("progress", { done: step.value.done, total: step.value.total });
        step = await run.next();
      }
      send("done", { audit: step.value });
    });
  });
}
