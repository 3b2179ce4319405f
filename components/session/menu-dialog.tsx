"use client";

import { useId, type ReactNode, type RefObject } from "react";
import styles from "./session-menu.module.css";

/**
 * The session menu's modal form (a native <dialog>, so focus is trapped and Escape
 * closes it): a heading, the fields, the error of the last attempt, Cancel and submit.
 * `onSubmit` gets the form's values; the dialog stays open until the caller closes it.
 */
export function MenuDialog(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  heading: string;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (form: FormData) => void;
  onClosed: () => void;
  children: ReactNode;
}) {
  const headingId = useId();
  const { dialogRef } = props;
  return (
    <dialog
      ref={dialogRef}
      className={styles.dialog}
      aria-labelledby={headingId}
      onClose={props.onClosed}
    >
      <form
        className={styles.dialogForm}
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit(new FormData(e.currentTarget));
        }}
      >
        <h2 id={headingId} className={styles.dialogTitle}>
          {props.heading}
        </h2>
        {props.children}
        {props.error && (
          <p className={styles.error} role="alert">
            {props.error}
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
          <button type="submit" className={styles.primary} disabled={props.busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
