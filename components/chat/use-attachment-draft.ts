"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import type { AttachmentCaps } from "@/lib/files/limits";
import {
  createAttachmentDraft,
  type AttachmentDraft,
  type DraftAttachment,
} from "./attachment-draft";
import { attachmentUrl, uploaderFor } from "./upload-attachment";

/**
 * The page's draft of attachments: uploaded to `sessionId` as they come, or held until
 * there is a session (null: the new chat). One per page; it lives as long as the page.
 */
export function useAttachmentDraft(
  sessionId: string | null,
  caps: AttachmentCaps,
): AttachmentDraft {
  const [draft] = useState(() =>
    createAttachmentDraft({
      caps,
      upload: sessionId === null ? null : uploaderFor(sessionId),
      preview: (file) => URL.createObjectURL(file),
      release: (url) => URL.revokeObjectURL(url),
      previewOf: (ref) => (sessionId === null ? null : attachmentUrl(sessionId, ref.id)),
    }),
  );
  useEffect(() => () => draft.dispose(), [draft]);
  return draft;
}

const NONE: readonly DraftAttachment[] = [];

/** The draft's files, re-rendering as they change (the server renders none). */
export function useDraftFiles(draft: AttachmentDraft): readonly DraftAttachment[] {
  return useSyncExternalStore(draft.subscribe, draft.list, () => NONE);
}
