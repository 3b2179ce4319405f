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

/**
 * The caps alone, picked out of a larger object (the server's configuration): what a page
 * hands the browser, which must never receive the rest of the configuration.
 */
export function attachmentCapsOf(from: AttachmentCaps): AttachmentCaps {
  return {
    maxAttachmentBytes: from.maxAttachmentBytes,
    maxMessageAttachmentBytes: from.maxMessageAttachmentBytes,
  };
}

/**
 * The limits a PDF is read under (R278): past any of them the upload is `pdf_too_large`
 * (422) and nothing is written. The reading runs in a worker thread that is terminated when
 * it passes the time or the memory limit, so a PDF bomb costs at most that much.
 */
export interface PdfLimits {
  /** Most pages a PDF may have (`SPINDLE_MAX_PDF_PAGES`, default 100). */
  readonly maxPages: number;
  /** Longest its text may take to read (`SPINDLE_PDF_TIMEOUT_MS`, default 10 s). */
  readonly timeoutMs: number;
  /**
   * Most memory the reading may add to the server process (default 256 MiB): the worker's
   * JavaScript heap is capped below it, and its buffers — a decompression bomb inflates
   * into buffers, not the heap — are watched through the process's resident size.
   */
  readonly memoryBytes: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxPages: 100,
  timeoutMs: 10_000,
  memoryBytes: 256 * 1024 * 1024,
};
