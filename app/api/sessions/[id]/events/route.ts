import { handle } from "@/lib/http/respond";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { sseResponse } from "@/lib/http/sse";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

/** The session channel: every event of the session, from this and other instances. */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { store, bus } = await services();
    await store.getSession(id);
    return sseResponse(
      (send) =>
        new Promise<void>((resolve) => {
          send("ready", { sessionId: id });
          const unsubscribe = bus.subscribe(id, (event) => send(event.type, event));
          const stop = () => {
            unsubscribe();
            resolve();
          };
          // The client may have gone while the session was being checked.
          if (req.signal.aborted) stop();
          else req.signal.addEventListener("abort", stop, { once: true });
        }),
    );
  });
}
