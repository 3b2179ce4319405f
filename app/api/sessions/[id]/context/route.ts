import { handle } from "@/lib/http/respond";
import { nodeIdParam, sessionIdParam, type RouteContext } from "@/lib/http/params";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

/** renderContext: what the model reads from `?head=ID` (default HEAD), in prompt order. */
export function GET(req: Request, ctx: RouteContext<"id">) {
  return handle(async () => {
    const id = sessionIdParam((await ctx.params).id);
    const head = new URL(req.url).searchParams.get("head");
    const { dispatcher } = await services();
    const rendered = await dispatcher.context(id, head ? nodeIdParam(head) : undefined);
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
    });
  });
}
