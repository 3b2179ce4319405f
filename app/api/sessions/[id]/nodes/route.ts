import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { nodesQuerySchema } from "@/lib/http/schemas";
import { packLedger } from "@/lib/engine/packed-ledger";
import type { PackedNodesPage } from "@/lib/dispatcher/workspace";

export const dynamic = "force-dynamic";

/**
 * The ledger a page at a time (docs/big-sessions.md): `?afterSeq&limit&view`, or the named
 * `?ids=`, answered as `{nodes, lastSeq, nextAfterSeq, total}` — or with `?form=columns` as
 * `{ledger, …}`, the same nodes in columns ([R293]). Without a query: the whole ledger.
 */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, ownedSession, admitRead }) => {
    const id = await ownedSession(ctx.params);
    const query = nodesQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    // The whole ledger of a big session is a heavy read ([R148]); pages and named ids are not.
    const whole = query.limit === undefined && query.ids === undefined;
    const leave = whole ? await admitRead(id) : () => undefined;
    try {
      const page = await workspace.nodesPage(id, query);
      if (query.form === "list") return Response.json(page);
      const { nodes, ...rest } = page;
      return Response.json({ ...rest, ledger: packLedger(id, nodes) } satisfies PackedNodesPage);
    } finally {
      leave();
    }
  });
}
