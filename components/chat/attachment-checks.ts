import { INLINE_IMAGE_TYPES } from "@/lib/files/judge";
import {
  MAX_ATTACHMENTS_PER_MESSAGE,
  TOO_MANY_ATTACHMENTS,
  type AttachmentCaps,
} from "@/lib/files/limits";
import { formatBytes } from "./file-size";

/**
 * What the composer can tell about a message's files before anything is sent (docs/spec.md
 * "Attachments", the composer rules): the caps the server announces, and whether the model
 * reads images. The server still judges every file by its content; these checks only spare
 * the user an upload or a turn the server would refuse.
 */

/** A file of the draft as these checks see it. */
export interface DraftFacts {
  readonly name: string;
  readonly size: number;
  /** An image by its judged type once uploaded, by its claimed type before. */
  readonly image: boolean;
  /** Where the file is: held (no session yet), uploading, ready, or refused. */
  readonly state: { readonly kind: "held" | "uploading" | "ready" | "refused" };
}

/** Whether a type is one of the images a model may be sent (and a browser may show). */
export function isImageType(mime: string): boolean {
  return (INLINE_IMAGE_TYPES as readonly string[]).includes(mime);
}

/**
 * Why a file cannot join a draft that already holds `held` files, or null when it can: the
 * per-message count and the per-file cap, both refused before an upload.
 */
export function refuseFile(
  file: { readonly name: string; readonly size: number },
  held: number,
  caps: AttachmentCaps,
): string | null {
  if (held >= MAX_ATTACHMENTS_PER_MESSAGE) return TOO_MANY_ATTACHMENTS;
  if (file.size > caps.maxAttachmentBytes) {
    return `It is ${formatBytes(file.size)}; one file may be at most ${formatBytes(caps.maxAttachmentBytes)}.`;
  }
  return null;
}

/**
 * Why the draft cannot be sent as it stands, or null: a file still uploading, a file that
 * was refused (it must be removed first, so nothing is sent without the user knowing), or
 * files that together weigh more than one message may carry.
 */
export function sendBlocker(files: readonly DraftFacts[], caps: AttachmentCaps): string | null {
  if (files.some((f) => f.state.kind === "uploading")) {
    return "Wait until the files are uploaded.";
  }
  const refused = files.filter((f) => f.state.kind === "refused");
  if (refused.length > 0) {
    return `Remove ${refused.map((f) => f.name).join(", ")} first: ${refused.length === 1 ? "it cannot" : "they cannot"} be sent.`;
  }
  return overTotal(files, caps);
}

/** The draft's files together weigh more than one message may carry: the message, or null. */
export function overTotal(files: readonly DraftFacts[], caps: AttachmentCaps): string | null {
  const total = files.filter((f) => f.state.kind !== "refused").reduce((sum, f) => sum + f.size, 0);
  if (total <= caps.maxMessageAttachmentBytes) return null;
  return `Together these files are ${formatBytes(total)}; one message may carry at most ${formatBytes(caps.maxMessageAttachmentBytes)}.`;
}

/**
 * The warning for images that would go to a model that cannot read them (the server
 * refuses such a turn, `vision_unsupported`), or null. `reads` is null when the page does
 * not know (a model the catalogue does not list): then the server's answer says it.
 */
export function visionWarning(
  files: readonly DraftFacts[],
  vision: { readonly reads: boolean | null; readonly model: string; readonly offline: boolean },
): string | null {
  if (vision.reads !== false) return null;
  const images = files.filter((f) => f.image && f.state.kind !== "refused");
  if (images.length === 0) return null;
  const which = `${images.length === 1 ? "it" : "them"}`;
  const names = images.map((f) => f.name).join(", ");
  // The offline model never reads images; a configured one may, unknown to the registry.
  const fix = vision.offline
    ? `Remove ${which}, or configure a model that reads images.`
    : `Remove ${which}, choose a model that reads images, or turn on “Images” in Settings if this one does.`;
  return `${vision.model} cannot read images (${names}). ${fix}`;
}
