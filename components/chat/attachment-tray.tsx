"use client";

import { useRef } from "react";
import { cx } from "@/components/ui/cx";
import { FileIcon, PaperclipIcon } from "@/components/ui/file-icons";
import type { DraftAttachment } from "./attachment-draft";
import { formatBytes } from "./file-size";
import styles from "./attachments.module.css";

/**
 * The paperclip beside the message box: opens the file chooser (several files at once).
 * The input itself is hidden; the button is the control a keyboard reaches.
 */
export function AttachButton({
  onFiles,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className={cx("btn", styles.attach)}
        aria-label="Attach files"
        title="Attach files — or drop them here, or paste an image"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon size={18} />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          // Emptied so that choosing the same file again is a change.
          e.currentTarget.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}

function chipMeta(file: DraftAttachment): string {
  switch (file.state.kind) {
    case "uploading": {
      const share =
        file.size > 0 ? Math.min(99, Math.floor((file.state.loaded / file.size) * 100)) : 0;
      return `uploading ${share}%`;
    }
    case "refused":
      return "not attached";
    case "held":
    case "ready":
      return formatBytes(file.size);
  }
}

/**
 * The files of the message being written, as chips (name, size, upload progress, remove),
 * with why a file was refused and what would stop the message from going. Nothing shows
 * while the draft has no files.
 */
export function AttachmentTray({
  files,
  onRemove,
  blocker,
  warning,
}: {
  files: readonly DraftAttachment[];
  onRemove: (key: string) => void;
  /** The files together weigh more than a message may carry (`overTotal`). */
  blocker: string | null;
  /** Images for a model that cannot read them. */
  warning: string | null;
}) {
  if (files.length === 0) return null;
  const refused = files.filter((f) => f.state.kind === "refused");
  return (
    <div className={styles.tray}>
      <ul className={styles.chips} aria-label="Attached files">
        {files.map((file) => (
          <li
            key={file.key}
            className={cx(styles.chip, file.state.kind === "refused" && styles.chipRefused)}
            data-status={file.state.kind}
          >
            {file.preview ? (
              // eslint-disable-next-line @next/next/no-img-element -- a blob: or the served file; nothing for next/image to optimise
              <img className={styles.chipThumb} src={file.preview} alt="" width={28} height={28} />
            ) : (
              <FileIcon size={20} className={styles.chipIcon} />
            )}
            <span className={styles.chipText}>
              <span className={styles.chipName} title={file.name}>
                {file.name}
              </span>
              <span className={styles.chipMeta}>{chipMeta(file)}</span>
            </span>
            {file.state.kind === "uploading" && (
              <progress
                className={styles.chipProgress}
                max={Math.max(1, file.size)}
                value={file.state.loaded}
                aria-label={`Uploading ${file.name}`}
              />
            )}
            <button
              type="button"
              className={cx("icon-btn", styles.chipRemove)}
              aria-label={`Remove ${file.name}`}
              title="Remove"
              onClick={() => onRemove(file.key)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {refused.map((file) => (
        <p key={file.key} className={styles.problem} role="alert">
          <strong>{file.name}</strong>: {file.state.kind === "refused" ? file.state.message : ""}
        </p>
      ))}
      {blocker && (
        <p className={styles.problem} role="alert">
          {blocker}
        </p>
      )}
      {warning && (
        <p className={styles.warning} role="status">
          {warning}
        </p>
      )}
    </div>
  );
}

/** The cue over the transcript while files are dragged onto it. */
export function DropCue() {
  return (
    <div className={styles.dropCue} aria-hidden="true">
      <PaperclipIcon size={22} /> Drop files to attach them to your message
    </div>
  );
}
