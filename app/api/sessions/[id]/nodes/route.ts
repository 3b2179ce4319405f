import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { nodesQuerySchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/**
 * The ledger a page at a time (docs/big-sessions.md): `?afterSeq&limit&view`, or the named
 * `?ids=`, answered as `{nodes, lastSeq, nextAfterSeq, total}`. Without a query: the whole ledger.
 */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, ownedSession }) => {
    const id = await ownedSession(ctx.params);
    const query = nodesQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(await workspace.nodesPage(id, query));
  });
}
