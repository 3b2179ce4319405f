import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { graphQuerySchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** The graph wire contract (compaction.md §6); `?afterSeq&limit` page its rows. */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, ownedSession, admitRead }) => {
    const id = await ownedSession(ctx.params);
    const page = graphQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    // The whole graph is built for every page: a big session's read counts as heavy ([R148]).
    const leave = await admitRead(id);
    try {
      return Response.json(await workspace.graph(id, page));
    } finally {
      leave();
    }
  });
}
