import type { AttachmentRef } from "@/lib/engine/types";
import { attachmentSchema } from "@/lib/http/schemas";
import { errorIn } from "@/components/ui/api-error";

/**
 * Uploads one file to a session (`POST /api/sessions/:id/attachments`, field `file`),
 * reporting the bytes sent as they go; resolves with the stored attachment, rejects with the
 * server's message (413 over the cap, 415 a refused type) or an `AbortError`.
 */
export type Upload = (
  file: File,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
) => Promise<AttachmentRef>;

/** The route an attachment's bytes are served from (inline for images, else a download). */
export function attachmentUrl(sessionId: string, attachmentId: string): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/attachments/${encodeURIComponent(attachmentId)}`;
}

function messageOf(xhr: XMLHttpRequest): string {
  return errorIn(jsonOf(xhr.responseText), `The upload failed (${xhr.status}).`).message;
}

/** The parsed text, or undefined when it is not JSON (a proxy's page). */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The uploader of one session. XMLHttpRequest rather than fetch: only it reports upload
 * progress, which a large file on a slow link needs.
 */
export function uploaderFor(sessionId: string): Upload {
  const url = `/api/sessions/${encodeURIComponent(sessionId)}/attachments`;
  return (file, onProgress, signal) =>
    new Promise<AttachmentRef>((resolve, reject) => {
      const aborted = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
      if (signal.aborted) return aborted();
      const xhr = new XMLHttpRequest();
      xhr.open("POST", url);
      xhr.responseType = "text";
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        if (xhr.status === 201) {
          const stored = attachmentSchema.safeParse(jsonOf(xhr.responseText));
          if (stored.success) resolve(stored.data);
          else reject(new Error("The server's answer to the upload could not be read."));
        } else reject(new Error(messageOf(xhr)));
      };
      xhr.onerror = () => reject(new Error("The upload failed: the server could not be reached."));
      xhr.onabort = aborted;
      signal.addEventListener("abort", () => xhr.abort(), { once: true });
      const form = new FormData();
      form.append("file", file, file.name);
      xhr.send(form);
    });
}
