"use client";

import { useEffect, useRef, useState } from "react";
import type { AttachmentRef } from "@/lib/engine/types";
import { FileIcon } from "@/components/ui/file-icons";
import { isImageType } from "./attachment-checks";
import { formatBytes } from "./file-size";
import { attachmentUrl } from "./upload-attachment";
import styles from "./attachments.module.css";

/** The box a thumbnail fits in, in CSS pixels (never enlarged past the image's own size). */
const THUMB = { width: 240, height: 180 } as const;

/**
 * A thumbnail's size: the image scaled down to fit THUMB, aspect kept. Given to the <img>
 * as width and height, so the row has its height before the image loads (no layout shift,
 * and the virtualised transcript measures it right).
 */
export function thumbSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, THUMB.width / width, THUMB.height / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** A file's type in words: "PNG image", "Text file", "PDF". */
export function typeLabel(mime: string): string {
  if (mime === "text/plain") return "Text file";
  if (mime === "application/pdf") return "PDF";
  if (isImageType(mime)) return `${mime.slice("image/".length).toUpperCase()} image`;
  return mime;
}

/**
 * A user message's files in the transcript (issue 24): images as thumbnails that open in a
 * lightbox, every other file as a card that downloads it. Served by the session's
 * attachment route, which answers only the session's owner.
 */
export function MessageFiles({
  sessionId,
  files,
}: {
  sessionId: string;
  files: readonly AttachmentRef[];
}) {
  const [open, setOpen] = useState<AttachmentRef | null>(null);
  if (files.length === 0) return null;
  return (
    <>
      <ul className={styles.files} aria-label="Attachments">
        {files.map((file) => {
          const url = attachmentUrl(sessionId, file.id);
          const meta = `${typeLabel(file.mime)} · ${formatBytes(file.size)}`;
          if (isImageType(file.mime) && file.width && file.height) {
            const size = thumbSize(file.width, file.height);
            return (
              <li key={file.id}>
                <button
                  type="button"
                  className={styles.thumb}
                  aria-label={`Open image ${file.name}`}
                  title={`${file.name} — ${file.width}×${file.height}, ${meta}`}
                  onClick={() => setOpen(file)}
                >
                  {/* eslint-disable-next-line @next/next/no-img-element -- served by the session's own route; nothing for next/image to optimise */}
                  <img
                    src={url}
                    alt={file.name}
                    width={size.width}
                    height={size.height}
                    loading="lazy"
                    decoding="async"
                  />
                </button>
              </li>
            );
          }
          return (
            <li key={file.id} className={styles.fileItem}>
              <a
                className={styles.fileCard}
                href={url}
                download={file.name}
                title={`Download ${file.name} (${file.tokens.toLocaleString("en")} tokens in a prompt)`}
              >
                <FileIcon size={22} className={styles.fileCardIcon} />
                <span className={styles.fileCardText}>
                  <span className={styles.fileCardName}>{file.name}</span>
                  <span className={styles.fileCardMeta}>{meta} · Download</span>
                </span>
              </a>
            </li>
          );
        })}
      </ul>
      {open && (
        <Lightbox
          file={open}
          url={attachmentUrl(sessionId, open.id)}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}

/**
 * An image at full size in a native modal <dialog>: focus is held inside it, Escape closes
 * it (the page's own Escape handlers stand aside while a dialog is open, `useEscapeKey`),
 * and so do Close and a click on the backdrop; focus then returns to the thumbnail.
 */
function Lightbox({
  file,
  url,
  onClose,
}: {
  file: AttachmentRef;
  url: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className={styles.lightbox}
      aria-label={`Image ${file.name}`}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (e.target === e.currentTarget) dialog.current?.close();
      }}
    >
      <div className={styles.lightboxBody}>
        {/* eslint-disable-next-line @next/next/no-img-element -- the session's own file, at its own size */}
        <img
          className={styles.lightboxImage}
          src={url}
          alt={file.name}
          width={file.width}
          height={file.height}
        />
        <div className={styles.lightboxBar}>
          <span className={styles.lightboxName} title={file.name}>
            {file.name}
          </span>
          <span className={styles.lightboxMeta}>
            {file.width}×{file.height} · {formatBytes(file.size)}
          </span>
          <a href={url} download={file.name}>
            Download
          </a>
          <button type="button" className="btn" autoFocus onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
      </div>
    </dialog>
  );
}
