import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { sessionPatchSchema } from "@/lib/http/schemas";
import { sessionBody } from "@/lib/http/session-body";

export const dynamic = "force-dynamic";

export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) =>
    Response.json(sessionBody(await workspace.session(sessionIdParam((await ctx.params).id)))),
  );
}

export function PATCH(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, json, ownedSession }) => {
    const id = await ownedSession(ctx.params);
    return Response.json(sessionBody(await workspace.update(id, await json(sessionPatchSchema))));
  });
}

export function DELETE(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) => {
    await workspace.remove(sessionIdParam((await ctx.params).id));
    return new Response(null, { status: 204 });
  });
}
