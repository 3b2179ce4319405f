import { guarded } from "@/lib/http/guard";
import { searchQuerySchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** Full-text search over the caller's sessions: best match first, then newest. */
export function GET(req: Request) {
  return guarded(req, async ({ workspace }) => {
    const { q, limit, cursor } = searchQuerySchema.parse(
      Object.fromEntries(new URL(req.url).searchParams),
    );
    return Response.json(await workspace.search(q, { limit, cursor }));
  });
}
