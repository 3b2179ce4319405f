import { attachment } from "@/lib/http/attachment";
import { guarded } from "@/lib/http/guard";
import { nodeIdParam, type RouteContext } from "@/lib/http/params";
import { exportQuerySchema } from "@/lib/http/schemas";
import { branchMarkdown } from "@/lib/portability/branch-markdown";

export const dynamic = "force-dynamic";

/** The JSON ledger (all branches) or one branch as Markdown (`?head=`, default HEAD). */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, ownedSession }) => {
    const id = await ownedSession(ctx.params);
    const q = exportQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    if (q.format === "json") {
      const { session, file } = await workspace.exportLedger(id);
      return new Response(JSON.stringify(file, null, 2), {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-disposition": attachment(session.title, "json"),
        },
      });
    }
    const { session, spine, rendering } = await workspace.branch(
      id,
      q.head ? nodeIdParam(q.head) : undefined,
    );
    return new Response(branchMarkdown(session, spine, rendering), {
      headers: {
        "content-type": "text/markdown; charset=utf-8",
        "content-disposition": attachment(session.title, "md"),
      },
    });
  });
}
