import { guarded } from "@/lib/http/guard";
import type { RouteContext } from "@/lib/http/params";
import { accountOf } from "@/lib/auth/actor";

export const dynamic = "force-dynamic";

/** Revokes one of the caller's keys; requests with it answer 401 from now on. */
export function DELETE(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ actor, services }) => {
    await services.keys.revoke(accountOf(actor), (await ctx.params).id);
    return new Response(null, { status: 204 });
  });
}
