import { guarded } from "@/lib/http/guard";
import { createSessionSchema, listSessionsQuerySchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** The caller's sessions, newest activity first, a page at a time (`?limit&cursor&q`). */
export function GET(req: Request) {
  return guarded(req, async ({ workspace }) => {
    const query = listSessionsQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(await workspace.list(query));
  });
}

export function POST(req: Request) {
  return guarded(req, async ({ workspace, json }) =>
    Response.json(await workspace.create(await json(createSessionSchema)), { status: 201 }),
  );
}
