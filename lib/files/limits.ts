/**
 * The caps on attachments (docs/spec.md "Attachments", R263), with their documented
 * defaults: the configuration, the request schemas, the upload and the ledger import all
 * read them from here.
 */

/** Most files one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/** What a message over {@link MAX_ATTACHMENTS_PER_MESSAGE} is told. */
export const TOO_MANY_ATTACHMENTS = `A message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments.`;

export interface AttachmentCaps {
  /** One file (`SPINDLE_MAX_ATTACHMENT_BYTES`, default 10 MiB). */
  readonly maxAttachmentBytes: number;
  /** All files of one message (`SPINDLE_MAX_MESSAGE_ATTACHMENT_BYTES`, default 20 MiB). */
  readonly maxMessageAttachmentBytes: number;
}

export const DEFAULT_ATTACHMENT_CAPS: AttachmentCaps = {
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxMessageAttachmentBytes: 20 * 1024 * 1024,
};
