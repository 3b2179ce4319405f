import type { AttachmentRef } from "../engine/types";
import { fencedFile, imageNote } from "../files/judge";
import type { ChatImage, ChatMessage } from "../llm/types";

/** A blob as the prompt reads it: its bytes, and for text its text. */
export interface BlobContent {
  readonly data: Uint8Array;
  readonly text: string | null;
}

export type LoadBlobs = (sha256s: readonly string[]) => Promise<ReadonlyMap<string, BlobContent>>;

/** Every blob the messages' attachments name. */
function hashesOf(messages: readonly ChatMessage[]): string[] {
  const out = new Set<string>();
  for (const m of messages) for (const a of m.attachments ?? []) out.add(a.sha256);
  return [...out];
}

function isImage(a: AttachmentRef): boolean {
  return a.mime.startsWith("image/");
}

/**
 * The prompt as a provider receives it (R266): each message's attachments read from their
 * blobs — a text file inlined after the message's text as a fenced block headed by its
 * name, an image as an image content part for a model that reads images (`vision`), or a
 * one-line note for one that does not. Messages without attachments pass unchanged, so a
 * rendering where a summary stands in for a node carries none of its files.
 */
export async function attachFiles(
  messages: readonly ChatMessage[],
  load: LoadBlobs,
  vision: boolean,
): Promise<ChatMessage[]> {
  const hashes = hashesOf(messages);
  if (hashes.length === 0) return [...messages];
  const blobs = await load(hashes);
  return messages.map((m) => {
    const attachments = m.attachments ?? [];
    if (attachments.length === 0) return m;
    const { attachments: _files, ...rest } = m;
    const texts: string[] = [];
    const images: ChatImage[] = [];
    for (const a of attachments) {
      const blob = blobs.get(a.sha256);
      if (blob === undefined) {
        texts.push(`[Attachment no longer stored: ${a.name}]`);
      } else if (isImage(a)) {
        if (vision)
          images.push({ mime: a.mime, base64: Buffer.from(blob.data).toString("base64") });
        else texts.push(imageNote(a.name, a.width ?? 0, a.height ?? 0));
      } else {
        texts.push(fencedFile(a.name, blob.text ?? new TextDecoder().decode(blob.data)));
      }
    }
    const content = [rest.content, ...texts].filter((t) => t !== "").join("\n\n");
    return { ...rest, content, ...(images.length > 0 ? { images } : {}) };
  });
}

/**
 * What the summariser reads for each message's attachments, by message id (messages
 * without attachments are left out): each text file fenced and trimmed by `trim`, one note
 * line per image (it never sees pixels). The text files of all the messages are read in
 * one `load`.
 */
export async function attachmentTextsForSummary<K>(
  messages: readonly { readonly id: K; readonly attachments?: readonly AttachmentRef[] }[],
  load: LoadBlobs,
  trim: (text: string) => string,
): Promise<Map<K, string>> {
  const out = new Map<K, string>();
  const withFiles = messages.filter((m) => (m.attachments ?? []).length > 0);
  if (withFiles.length === 0) return out;
  const hashes = new Set(
    withFiles.flatMap((m) => (m.attachments ?? []).filter((a) => !isImage(a)).map((a) => a.sha256)),
  );
  const blobs = hashes.size > 0 ? await load([...hashes]) : new Map<string, BlobContent>();
  for (const m of withFiles) {
    const text = (m.attachments ?? [])
      .map((a) => {
        if (isImage(a)) return imageNote(a.name, a.width ?? 0, a.height ?? 0);
        const blob = blobs.get(a.sha256);
        const text = blob ? (blob.text ?? new TextDecoder().decode(blob.data)) : "";
        return fencedFile(a.name, trim(text));
      })
      .join("\n\n");
    out.set(m.id, text);
  }
  return out;
}
