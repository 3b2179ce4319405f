"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type RefObject } from "react";
import { forkSessionAction } from "@/app/s/[id]/actions";
import { SYSTEM_PROMPT_MAX_CHARS } from "@/lib/http/schemas";
import { formText } from "@/components/ui/form-text";
import { MenuDialog } from "./menu-dialog";
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
    <MenuDialog
      dialogRef={dialogRef}
      heading="New session with another system prompt"
      submitLabel={busy ? "Copying…" : "Create session"}
      busy={busy}
      error={error}
      onClosed={onClosed}
      onSubmit={(form) => {
        const prompt = formText(form, "systemPrompt");
        if (prompt !== null) void submit(prompt);
      }}
    >
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
        maxLength={SYSTEM_PROMPT_MAX_CHARS}
        required
      />
    </MenuDialog>
  );
}
