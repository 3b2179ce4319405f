import { createHash } from "node:crypto";
import { EngineError } from "../engine/errors";
import type { SessionId, Tokens } from "../engine/ids";
import type { AttachmentRef, SessionRecord } from "../engine/types";
import { ACCEPTED_KINDS, attachmentTokens, sanitiseFileName } from "../files/judge";
import { readFile, type PdfReading } from "../files/read-file";
import {
  MAX_ATTACHMENTS_PER_MESSAGE,
  TOO_MANY_ATTACHMENTS,
  type AttachmentCaps,
} from "../files/limits";
import { lookupModel } from "../llm/model-registry";
import type { AttachmentStore, StoredAttachment } from "../store/attachments";

export function tooLargeMessage(what: string, limit: number): string {
  return `${what} is larger than the limit of ${limit.toLocaleString("en")} bytes.`;
}

/** What an upload answers (201): the stored attachment's public fields. */
export function attachmentBody(a: StoredAttachment): AttachmentRef {
  return refOf(a);
}

function refOf(a: StoredAttachment): AttachmentRef {
  return {
    id: a.id,
    name: a.name,
    mime: a.mime,
    size: a.size,
    sha256: a.sha256,
    tokens: a.tokens,
    ...(a.width !== null ? { width: a.width } : {}),
    ...(a.height !== null ? { height: a.height } : {}),
  };
}

/**
 * Judges, reads, names, hashes and prices an upload, then stores it waiting for its turn.
 * Refused before anything is written: over the cap (413), a refused kind (415 with the
 * accepted list), a PDF whose text cannot be read (422, R278).
 */
export async function uploadAttachment(
  store: Pick<AttachmentStore, "addAttachment">,
  input: {
    readonly sessionId: SessionId;
    readonly name: string;
    readonly bytes: Uint8Array;
    readonly caps: AttachmentCaps;
    readonly count: (text: string) => Tokens;
    readonly pdf: PdfReading;
  },
): Promise<StoredAttachment> {
  if (input.bytes.byteLength > input.caps.maxAttachmentBytes) {
    throw new EngineError(
      "attachment_too_large",
      tooLargeMessage("The file", input.caps.maxAttachmentBytes),
    );
  }
  const file = await readFile(input.bytes, input.pdf);
  if (file.kind === "refused") {
    throw new EngineError(
      file.code,
      file.code === "unsupported_attachment"
        ? `${file.reason} Accepted: ${ACCEPTED_KINDS}.`
        : file.reason,
    );
  }
  const name = sanitiseFileName(input.name);
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  return store.addAttachment({
    sessionId: input.sessionId,
    name,
    mime: file.mime,
    kind: file.kind,
    sha256,
    data: input.bytes,
    tokens: attachmentTokens(file, name, input.count),
    ...(file.kind === "image" ? { width: file.width, height: file.height } : { text: file.text }),
  });
}

/** Whether a session's model reads images: its setting, else the model registry. */
export function visionFor(session: SessionRecord, model: string, offline: boolean): boolean {
  if (offline) return false;
  return session.meta.settings?.vision ?? lookupModel(model).vision;
}

/**
 * The attachments a turn names, checked before anything is written: each an unsent upload
 * of this session (404 / 409), together within the per-message cap (413), and no image for
 * a model that cannot read one (400). The append claims them again under the write lock.
 */
export async function attachmentsForTurn(
  store: Pick<AttachmentStore, "attachmentsById">,
  input: {
    readonly sessionId: SessionId;
    readonly ids: readonly string[];
    readonly caps: AttachmentCaps;
    readonly vision: boolean;
    readonly model: string;
  },
): Promise<AttachmentRef[]> {
  const ids = [...new Set(input.ids)];
  if (ids.length > MAX_ATTACHMENTS_PER_MESSAGE) {
    throw new EngineError("invalid_request", TOO_MANY_ATTACHMENTS);
  }
  const rows = new Map((await store.attachmentsById(input.sessionId, ids)).map((a) => [a.id, a]));
  const out: AttachmentRef[] = [];
  let total = 0;
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) throw new EngineError("attachment_not_found", `No attachment ${id} in this session.`);
    if (row.nodeId !== null) {
      throw new EngineError(
        "attachment_in_use",
        `Attachment ${id} was already sent with a message; upload the file again.`,
      );
    }
    if (row.kind === "image" && !input.vision) {
      throw new EngineError(
        "vision_unsupported",
        `The model ${input.model} cannot read images (${row.name}); choose a vision model, or turn on "vision" in the session's settings if it has it.`,
      );
    }
    total += row.size;
    out.push(refOf(row));
  }
  if (total > input.caps.maxMessageAttachmentBytes) {
    throw new EngineError(
      "attachment_too_large",
      tooLargeMessage(
        "Together, the attachments of this message",
        input.caps.maxMessageAttachmentBytes,
      ),
    );
  }
  return out;
}
