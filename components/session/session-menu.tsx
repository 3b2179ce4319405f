"use client";

import { useRouter } from "next/navigation";
import {
  Fragment,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from "react";
import type { SessionRecord } from "@/lib/engine/types";
import { deleteSessionAction, updateSessionAction } from "@/app/s/[id]/actions";
import { TITLE_MAX_CHARS } from "@/lib/http/schemas";
import { ForkDialog } from "./fork-dialog";
import { formText } from "@/components/ui/form-text";
import { pageDrafts } from "@/components/chat/drafts";
import { usePopover } from "@/components/ui/use-popover";
import { MenuDialog } from "./menu-dialog";
import styles from "./session-menu.module.css";

export interface SessionMenuProps {
  readonly sessionId: string;
  readonly title: string;
  /** The branch on screen, for the Markdown export; the session's HEAD when omitted. */
  readonly headId?: string | null;
  /** Called with the renamed session (e.g. the session store's `setSession`); else a refresh. */
  readonly onRenamed?: (session: SessionRecord) => void;
  /** The current system prompt (ROOT's content), the starting text of "another prompt". */
  readonly systemPrompt?: string;
  /**
   * The header's actions that do not fit in line on this screen (issue 21: one row on a
   * phone), listed first, above the session's own items.
   */
  readonly extraItems?: readonly MenuExtra[];
}

/** An action the header moved into the menu: a link, or a button with its own act. */
export interface MenuExtra {
  readonly label: string;
  readonly href?: string;
  readonly onSelect?: () => void;
  /** Shown but not usable; `title` says why. */
  readonly disabled?: boolean;
  readonly title?: string;
}

/**
 * The session's menu (a WAI-ARIA menu button): rename, export as JSON or Markdown, delete.
 * Writes go through the same server actions as the rest of the page; the exports are plain
 * downloads of `GET /api/sessions/:id/export`.
 */
export function SessionMenu(props: SessionMenuProps) {
  const { sessionId, title, headId, onRenamed } = props;
  const router = useRouter();
  const menuId = useId();
  const {
    open,
    setOpen,
    trigger,
    panel,
    triggerRef: buttonRef,
    panelRef: menuRef,
    floatingStyles,
  } = usePopover({ placement: "bottom-end", gap: 4, minHeight: 120 });
  const [busy, setBusy] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const forkRef = useRef<HTMLDialogElement>(null);
  const [renameError, setRenameError] = useState<string | null>(null);

  const base = `/api/sessions/${encodeURIComponent(sessionId)}/export`;
  const markdownHref = `${base}?format=markdown${headId ? `&head=${encodeURIComponent(headId)}` : ""}`;

  const items = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (which: number | "first" | "last") => {
    const list = items();
    const i = which === "first" ? 0 : which === "last" ? list.length - 1 : which;
    list[(i + list.length) % list.length]?.focus();
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  // Focus lands on the first item when the menu opens.
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open, menuRef]);

  const onMenuKey = (e: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusItem(at + 1),
      ArrowUp: () => focusItem(at - 1),
      Home: () => focusItem("first"),
      End: () => focusItem("last"),
      Escape: () => close(),
      Tab: () => close(false),
    };
    const act = keys[e.key];
    if (!act) return;
    if (e.key !== "Tab") e.preventDefault();
    act();
  };

  const startRename = () => {
    close(false);
    setRenameError(null);
    dialogRef.current?.showModal();
    // The dialog focuses its first field; selecting it lets typing replace the old title.
    dialogRef.current?.querySelector("input")?.select();
  };

  const rename = async (next: string) => {
    setBusy(true);
    const result = await updateSessionAction(sessionId, { title: next });
    setBusy(false);
    if (!result.ok) {
      setRenameError(result.error.message);
      return;
    }
    dialogRef.current?.close();
    if (onRenamed) onRenamed(result.value);
    else router.refresh();
  };

  const remove = async () => {
    close();
    if (!window.confirm(`Delete "${title}" and every branch in it? This cannot be undone.`)) {
      return;
    }
    setBusy(true);
    const result = await deleteSessionAction(sessionId);
    setBusy(false);
    if (!result.ok) {
      window.alert(`The session could not be deleted: ${result.error.message}`);
      return;
    }
    pageDrafts.forget(sessionId);
    router.push("/");
    router.refresh();
  };

  const extras = props.extraItems ?? [];
  return (
    <div className={styles.wrap}>
      <button
        ref={trigger}
        type="button"
        className={styles.trigger}
        aria-label="Session menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        disabled={busy}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {/* Always mounted, hidden when closed: a download link removed from the page
          during its own click would not be followed. */}
      <div
        ref={panel}
        id={menuId}
        hidden={!open}
        role="menu"
        aria-label="Session"
        className={styles.menu}
        style={floatingStyles}
        onKeyDown={onMenuKey}
      >
        {extras.map((extra) => (
          <Fragment key={extra.label}>
            {extra.href ? (
              <a
                role="menuitem"
                tabIndex={-1}
                className={styles.item}
                href={extra.href}
                onClick={() => close(false)}
              >
                {extra.label}
              </a>
            ) : (
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={styles.item}
                aria-disabled={extra.disabled || undefined}
                title={extra.title}
                onClick={() => {
                  close(false);
                  extra.onSelect?.();
                }}
              >
                {extra.label}
              </button>
            )}
          </Fragment>
        ))}
        {extras.length > 0 && <div role="separator" className={styles.separator} />}
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={styles.item}
          onClick={startRename}
        >
          Rename…
        </button>
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={styles.item}
          onClick={() => {
            close(false);
            forkRef.current?.showModal();
          }}
        >
          New session with another prompt…
        </button>
        <a
          role="menuitem"
          tabIndex={-1}
          className={styles.item}
          href={`${base}?format=json`}
          download
          onClick={() => close()}
        >
          Export JSON
        </a>
        <a
          role="menuitem"
          tabIndex={-1}
          className={styles.item}
          href={markdownHref}
          download
          onClick={() => close()}
        >
          Export Markdown
        </a>
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`${styles.item} ${styles.danger}`}
          onClick={remove}
        >
          Delete…
        </button>
      </div>
      <RenameDialog
        dialogRef={dialogRef}
        title={title}
        busy={busy}
        error={renameError}
        onSubmit={rename}
        onClosed={() => buttonRef.current?.focus()}
      />
      <ForkDialog
        dialogRef={forkRef}
        sessionId={sessionId}
        headId={headId ?? null}
        systemPrompt={props.systemPrompt ?? ""}
        onClosed={() => buttonRef.current?.focus()}
      />
    </div>
  );
}

function RenameDialog({
  dialogRef,
  title,
  busy,
  error,
  onSubmit,
  onClosed,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: string;
  busy: boolean;
  error: string | null;
  onSubmit: (title: string) => void;
  onClosed: () => void;
}) {
  const inputId = useId();
  return (
    <MenuDialog
      dialogRef={dialogRef}
      heading="Rename session"
      submitLabel="Save"
      busy={busy}
      error={error}
      onClosed={onClosed}
      onSubmit={(form) => {
        const value = formText(form, "title");
        if (value !== null) onSubmit(value);
      }}
    >
      <label htmlFor={inputId} className={styles.label}>
        Title
      </label>
      {/* Keyed on the title so each opening starts from the current one. */}
      <input
        key={title}
        id={inputId}
        name="title"
        className={styles.input}
        defaultValue={title}
        maxLength={TITLE_MAX_CHARS}
        required
      />
    </MenuDialog>
  );
}
