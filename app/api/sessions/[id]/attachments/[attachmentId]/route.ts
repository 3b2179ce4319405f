import { guarded } from "@/lib/http/guard";
import { type RouteContext } from "@/lib/http/params";
import { fileDisposition } from "@/lib/http/attachment";
import { INLINE_IMAGE_TYPES } from "@/lib/files/judge";

export const dynamic = "force-dynamic";

/**
 * An attachment's bytes, with its stored (content-judged) type, `nosniff`, and inline only
 * for the safe image types; everything else downloads (R269).
 */
export function GET(req: Request, ctx: RouteContext<"id" | "attachmentId">) {
  return guarded(req, async ({ workspace, ownedSession }) => {
    const sessionId = await ownedSession(ctx.params);
    const { attachmentId } = await ctx.params;
    const { attachment, data } = await workspace.attachmentFile(sessionId, attachmentId);
    const inline = (INLINE_IMAGE_TYPES as readonly string[]).includes(attachment.mime);
    const type = attachment.mime === "text/plain" ? "text/plain; charset=utf-8" : attachment.mime;
    return new Response(Buffer.from(data), {
      status: 200,
      headers: {
        "content-type": type,
        "content-length": String(data.byteLength),
        "x-content-type-options": "nosniff",
        "content-disposition": fileDisposition(attachment.name, inline),
        // Even opened directly, nothing in it may run or load anything.
        "content-security-policy": "default-src 'none'; sandbox",
        // Content-addressed and never rewritten; private: it is someone's file.
        "cache-control": "private, max-age=31536000, immutable",
      },
    });
  });
}
