import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { attachmentBody } from "@/lib/dispatcher/attachments";

export const dynamic = "force-dynamic";

/**
 * Uploads one file (`multipart/form-data`, field `file`) to the session; it waits there
 * until a turn names it in `attachments`. The one route whose body is not JSON (R262).
 */
export function POST(req: Request, ctx: RouteContext<"id">) {
  return guarded(
    req,
    async ({ workspace, file, ownedSession }) => {
      const sessionId = await ownedSession(ctx.params);
      const { name, bytes } = await file();
      const stored = await workspace.upload({ sessionId, name, bytes });
      return Response.json(attachmentBody(stored), { status: 201 });
    },
    { body: "multipart" },
  );
}
