"use client";

import { Fragment, useEffect, useId, useRef } from "react";
import { SHORTCUT_SECTIONS } from "./registry";
import styles from "./shortcuts.module.css";

/** The list of keyboard shortcuts, a section per part of the page (a native modal dialog). */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={headingId}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (e.target === e.currentTarget) dialog.current?.close();
      }}
    >
      <div className={styles.body}>
        <header className={styles.head}>
          <h2 id={headingId} className={styles.title}>
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            className={styles.close}
            aria-label="Close"
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
        </header>
        {SHORTCUT_SECTIONS.map((section) => (
          <section key={section.id} aria-labelledby={`${headingId}-${section.id}`}>
            <h3 id={`${headingId}-${section.id}`} className={styles.section}>
              {section.title} <span className={styles.where}>— {section.where}</span>
            </h3>
            <dl className={styles.list}>
              {section.shortcuts.map((s) => (
                <Fragment key={s.keys.join("+")}>
                  <dt className={styles.keys}>
                    {s.keys.map((k, i) => (
                      <Fragment key={k}>
                        {i > 0 && <span className={styles.plus}>+</span>}
                        <kbd className={styles.kbd}>{k}</kbd>
                      </Fragment>
                    ))}
                  </dt>
                  <dd className={styles.what}>{s.what}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>
  );
}
