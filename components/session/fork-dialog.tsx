"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type RefObject } from "react";
import { forkSessionAction } from "@/app/s/[id]/actions";
import styles from "./session-menu.module.css";

/**
 * A new session from the branch on screen, under another system prompt. ROOT is never
 * rewritten (the ledger is append-only), so changing the prompt means a copy: the branch's
 * messages under a new ROOT; this session stays as it is.
 */
export function ForkDialog({
  dialogRef,
  sessionId,
  headId,
  systemPrompt,
  onClosed,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  sessionId: string;
  headId: string | null;
  systemPrompt: string;
  onClosed: () => void;
}) {
  const router = useRouter();
  const headingId = useId();
  const promptId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (prompt: string) => {
    setBusy(true);
    const result = await forkSessionAction(sessionId, {
      systemPrompt: prompt,
      ...(headId ? { headId } : {}),
    });
    setBusy(false);
    if (!result.ok) return setError(result.error.message);
    dialogRef.current?.close();
    router.push(`/s/${result.value.id}`);
  };

  return (
    <dialog
      ref={dialogRef}
      className={styles.dialog}
      aria-labelledby={headingId}
      onClose={onClosed}
    >
      <form
        className={styles.dialogForm}
        onSubmit={(e) => {
          e.preventDefault();
          const value = new FormData(e.currentTarget).get("systemPrompt");
          if (typeof value === "string" && value.trim() !== "") void submit(value.trim());
        }}
      >
        <h2 id={headingId} className={styles.dialogTitle}>
          New session with another system prompt
        </h2>
        <p className={styles.hint}>
          The messages of this branch are copied under the new prompt; this session is not changed.
        </p>
        <label htmlFor={promptId} className={styles.label}>
          System prompt
        </label>
        <textarea
          key={systemPrompt}
          id={promptId}
          name="systemPrompt"
          className={styles.input}
          defaultValue={systemPrompt}
          rows={6}
          maxLength={32_000}
          required
        />
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <div className={styles.dialogActions}>
          <button
            type="button"
            className={styles.secondary}
            onClick={() => dialogRef.current?.close()}
          >
            Cancel
          </button>
          <button type="submit" className={styles.primary} disabled={busy}>
            {busy ? "Copying…" : "Create session"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
