import { guarded } from "@/lib/http/guard";
import type { RouteContext } from "@/lib/http/params";
import { accountOf } from "@/lib/auth/actor";

export const dynamic = "force-dynamic";

/** Revokes one of the caller's keys; requests with it answer 401 from now on. */
export function DELETE(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ actor, services }) => {
    const id = (await ctx.params).id;
    await services.keys.revoke(accountOf(actor), id);
    // What the key started (a turn, an event stream) stops too, on every instance ([R147]).
    services.gate.revoke({ ownerId: actor.ownerId, credentials: [`key:${id}`] });
    return new Response(null, { status: 204 });
  });
}
