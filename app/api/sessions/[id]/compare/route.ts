import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { compareQuerySchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** Two nodes' branches side by side from their fork point ([R181]). */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace, ownedSession }) => {
    const id = await ownedSession(ctx.params);
    const { a, b } = compareQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(await workspace.compare(id, a, b));
  });
}
