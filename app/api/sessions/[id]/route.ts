import { z } from "zod";
import { EngineError } from "@/lib/engine/errors";
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
    // null clears an override (the server-wide default applies again).
    model: z.string().trim().min(1).max(200).nullable().optional(),
    contextWindow: z
      .number()
      .int()
      .min(256, "The context window must be at least 256 tokens.")
      .max(10_000_000, "The context window can be at most 10,000,000 tokens.")
      .nullable()
      .optional(),
    keepRecentTokens: z
      .number()
      .int()
      .min(0, "Keep recent cannot be negative.")
      .max(10_000_000, "Keep recent can be at most 10,000,000 tokens.")
      .nullable()
      .optional(),
    autoCompact: z.boolean().nullable().optional(),
  })
  .strict();

const patchBody = z
  .object({ title: z.string().trim().min(1).max(200).optional(), settings: settings.optional() })
  .strict();

export function PATCH(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const body = await readJson(req, patchBody);
    const { store, bus, providers } = await services();
    if (typeof body.settings?.model === "string" && providers.describe().kind === "offline") {
      throw new EngineError(
        "invalid_request",
        "Only the offline model is available: configure OPENAI_BASE_URL (and OPENAI_API_KEY) to choose models.",
      );
    }
    let session = await store.getSession(id);
    if (body.title !== undefined) session = await store.renameSession(id, body.title);
    const next = body.settings;
    if (next !== undefined) {
      session = await store.updateMeta(id, (meta) => {
        const merged: Record<string, unknown> = { ...meta.settings };
        for (const [key, value] of Object.entries(next)) {
          if (value === null) delete merged[key];
          else if (value !== undefined) merged[key] = value;
        }
        return { ...meta, settings: merged };
      });
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
