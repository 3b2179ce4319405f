import { z } from "zod";
import { handle, readJson } from "@/lib/http/respond";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(64).optional(),
});

export function GET(req: Request) {
  return handle(async () => {
    const params = Object.fromEntries(new URL(req.url).searchParams);
    const { limit, cursor } = listQuery.parse(params);
    const { store } = await services();
    return Response.json(await store.listSessions({ limit, cursor }));
  });
}

const createBody = z.object({ title: z.string().max(200).optional() });

export function POST(req: Request) {
  return handle(async () => {
    const { title } = await readJson(req, createBody);
    const { store } = await services();
    const session = await store.createSession(title === undefined ? {} : { title });
    return Response.json(session, { status: 201 });
  });
}
