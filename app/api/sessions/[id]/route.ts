import { z } from "zod";
import { handle, readJson } from "@/lib/http/respond";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

export function GET(_req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { store } = await services();
    return Response.json(await store.getSession(id));
  });
}

const settings = z
  .object({
    model: z.string().trim().min(1).max(200).optional(),
    contextWindow: z.number().int().min(256).max(10_000_000).optional(),
    keepRecentTokens: z.number().int().min(0).max(10_000_000).optional(),
    autoCompact: z.boolean().optional(),
  })
  .strict();

const patchBody = z
  .object({ title: z.string().trim().min(1).max(200).optional(), settings: settings.optional() })
  .strict();

export function PATCH(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const body = await readJson(req, patchBody);
    const { store, bus } = await services();
    let session = await store.getSession(id);
    if (body.title !== undefined) session = await store.renameSession(id, body.title);
    const next = body.settings;
    if (next !== undefined) {
      // Drop absent keys so exactOptionalPropertyTypes holds and nothing is unset by accident.
      const patch = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined));
      session = await store.updateMeta(id, (meta) => ({
        ...meta,
        settings: { ...meta.settings, ...patch },
      }));
    }
    bus.publish(id, { type: "session_changed" });
    return Response.json(session);
  });
}

export function DELETE(_req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const { store } = await services();
    await store.deleteSession(id);
    return new Response(null, { status: 204 });
  });
}
