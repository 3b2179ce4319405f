import { guarded } from "@/lib/http/guard";
import { nodeIdParam, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { contextQuerySchema } from "@/lib/http/schemas";
import type { ContextAnswer } from "@/lib/http/answers";

export const dynamic = "force-dynamic";

/** renderContext: what the model reads from `?head=ID` (default HEAD), in prompt order. */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return guarded(req, async ({ workspace }) => {
    const id = sessionIdParam((await ctx.params).id);
    const { head } = contextQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    const rendered = await workspace.context(id, head ? nodeIdParam(head) : undefined);
    return Response.json({
      headId: rendered.headId,
      ids: rendered.ids,
      messages: rendered.messages.map((m) => ({
        id: m.id,
        kind: m.kind,
        role: m.role,
        content: m.content,
        tokenCount: m.tokenCount,
        ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
        ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
      })),
    } satisfies ContextAnswer);
  });
}
