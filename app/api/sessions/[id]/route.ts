import { z } from "zod";
import { EngineError } from "@/lib/engine/errors";
import { guarded } from "@/lib/http/guard";
import { sessionIdParam, type RouteContext } from "@/lib/http/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) =>
    Response.json(await workspace.session(sessionIdParam((await ctx.params).id))),
  );
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
  return guarded(req, async ({ workspace, json, services }) => {
    const id = sessionIdParam((await ctx.params).id);
    const body = await json(patchBody);
    if (
      typeof body.settings?.model === "string" &&
      services.providers.describe().kind === "offline"
    ) {
      throw new EngineError(
        "invalid_request",
        "Only the offline model is available: configure OPENAI_BASE_URL (and OPENAI_API_KEY) to choose models.",
      );
    }
    return Response.json(await workspace.update(id, body));
  });
}

export function DELETE(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) => {
    await workspace.remove(sessionIdParam((await ctx.params).id));
    return new Response(null, { status: 204 });
  });
}
