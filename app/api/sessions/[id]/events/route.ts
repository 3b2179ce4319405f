import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { sseResponse } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

/** The session channel: every event of the session, from this and other instances. */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, track, admit }) => {
    const id = sessionIdParam((await ctx.params).id);
    // Subscribing checks ownership, so a refused channel answers a JSON 404, not a stream.
    const events: { type: string }[] = [];
    let forward: ((e: { type: string }) => void) | null = null;
    const unsubscribe = await workspace.subscribe(id, (event) =>
      forward ? forward(event) : events.push(event),
    );
    // An account holds at most SPINDLE_MAX_STREAMS_PER_ACCOUNT streams ([R148]).
    let leave: () => void;
    try {
      leave = admit("event_streams");
    } catch (e) {
      unsubscribe();
      throw e;
    }
    return sseResponse(
      (send, closed) =>
        new Promise<void>((resolve) => {
          send("ready", { sessionId: id });
          forward = (event) => send(event.type, event);
          for (const event of events.splice(0)) forward(event);
          // Ends when the client goes, or when its sign-in or key is revoked ([R147]).
          const work = track();
          let stopped = false;
          const stop = () => {
            if (stopped) return;
            stopped = true;
            leave();
            unsubscribe();
            work.release();
            resolve();
          };
          // The client may have gone while the session was being checked.
          if (work.signal.aborted || closed.aborted) stop();
          else {
            work.signal.addEventListener("abort", stop, { once: true });
            closed.addEventListener("abort", stop, { once: true });
          }
        }),
    );
  });
}
