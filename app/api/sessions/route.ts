import { z } from "zod";
import { guarded } from "@/lib/http/guard";
import { createSessionSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(64).optional(),
});

/** The caller's sessions, most recently active first. */
export function GET(req: Request) {
  return guarded(req, async ({ workspace }) => {
    const { limit, cursor } = listQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(await workspace.list({ limit, cursor }));
  });
}

export function POST(req: Request) {
  return guarded(req, async ({ workspace, json }) => {
    const { title } = await json(createSessionSchema);
    return Response.json(await workspace.create(title === undefined ? {} : { title }), {
      status: 201,
    });
  });
}
