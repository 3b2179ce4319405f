import { z } from "zod";
import { EngineError } from "@/lib/engine/errors";
import { handle } from "@/lib/http/respond";
import { nodeIdParam, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";
import { toLedgerFile } from "@/lib/portability/ledger-file";
import { branchMarkdown } from "@/lib/portability/branch-markdown";

export const dynamic = "force-dynamic";

const query = z.object({
  format: z.enum(["json", "md"]).default("json"),
  head: z.string().optional(),
});

function attachment(title: string, ext: string): string {
  const safe = title.replace(/[^\w.-]+/g, "_").slice(0, 60) || "session";
  return `attachment; filename="${safe}.${ext}"`;
}

/** The JSON ledger (all branches) or one branch as Markdown (`?head=`, default HEAD). */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
    const { store, dispatcher } = await services();
    const session = await store.getSession(id);
    if (q.format === "json") {
      const file = toLedgerFile(session, await store.nodes(id), new Date());
      return new Response(JSON.stringify(file, null, 2), {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-disposition": attachment(session.title, "json"),
        },
      });
    }
    const head = q.head ? nodeIdParam(q.head) : session.headId;
    if (!head) throw new EngineError("invalid_ledger", "The session has no HEAD to export.");
    const [spine, rendering] = await Promise.all([
      store.spine(id, head),
      dispatcher.context(id, head),
    ]);
    return new Response(branchMarkdown(session, spine, rendering), {
      headers: {
        "content-type": "text/markdown; charset=utf-8",
        "content-disposition": attachment(session.title, "md"),
      },
    });
  });
}
