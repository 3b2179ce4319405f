"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { newSessionAction } from "@/app/actions";
import { deleteSessionAction } from "@/app/s/[id]/actions";
import type { AttachmentCaps } from "@/lib/files/limits";
import { AccountMenu, type AccountMenuProps } from "@/components/account/account-menu";
import { SearchButton } from "@/components/search/search-launcher";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { cx } from "@/components/ui/cx";
import { useEscapeKey } from "@/components/ui/use-escape-key";
import { pageDrafts, useDraft } from "./drafts";
import { overTotal, sendBlocker, visionWarning } from "./attachment-checks";
import { AttachButton, AttachmentTray, DropCue } from "./attachment-tray";
import { SessionsSidebar } from "./sessions-sidebar";
import { uploaderFor } from "./upload-attachment";
import { useAttachmentDraft, useDraftFiles } from "./use-attachment-draft";
import { pasteFiles, useFileDrop } from "./use-file-drop";
import { useHeaderLayout } from "./use-narrow-screen";
import { handFirstMessage, useNewChatShortcut, useSidebarPinned } from "./use-sidebar";
import styles from "./chat-app.module.css";
import composer from "./composer.module.css";

/** The new chat's draft is kept under this id until the chat exists. */
const NEW = "new";

/** The server's model as the new chat shows it, and whether it reads images. */
export interface NewChatModel {
  readonly label: string;
  readonly offline: boolean;
  readonly vision: boolean;
}

/**
 * A new chat (issue 21): nothing is written until its first message is sent — then the
 * session is created, the message handed to its page (session storage) and sent there, so
 * "New chat" leaves no empty session behind. Its files are held in the page until then
 * (there is no session to upload them to); one the server refuses deletes the session just
 * made, and the chat stays unwritten with the file's chip saying why (issue 24).
 */
export function NewChat({
  account,
  model,
  caps,
}: {
  account: AccountMenuProps;
  model: NewChatModel;
  caps: AttachmentCaps;
}) {
  const router = useRouter();
  useNewChatShortcut();
  const layout = useHeaderLayout();
  const [pinned, setPinned] = useSidebarPinned();
  const [drawer, setDrawer] = useState(false);
  const phone = layout === "phone";
  const sidebarOpen = phone ? drawer : pinned;
  const [text, setText] = useDraft(NEW);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEscapeKey(phone && drawer, () => setDrawer(false));
  const draftFiles = useAttachmentDraft(null, caps);
  const files = useDraftFiles(draftFiles);
  const drop = useFileDrop(draftFiles.add);
  const warning = visionWarning(files, {
    reads: !model.offline && model.vision,
    model: model.label,
    offline: model.offline,
  });

  const submit = async () => {
    const content = text;
    if (busy || (content.trim() === "" && files.length === 0)) return;
    const blocker = sendBlocker(files, caps);
    if (blocker !== null) {
      setError(blocker);
      return;
    }
    setBusy(true);
    setError(null);
    const created = await newSessionAction({});
    if (!created.ok) {
      setBusy(false);
      setError(created.error.message);
      return;
    }
    const sessionId = created.value.id;
    const attachments = await draftFiles.uploadHeld(uploaderFor(sessionId));
    if (attachments === null) {
      // A file was refused (its chip says why): the chat stays unwritten.
      await deleteSessionAction(sessionId);
      setBusy(false);
      return;
    }
    handFirstMessage(sessionId, { text: content, attachments });
    pageDrafts.put(NEW, "");
    router.push(`/s/${sessionId}`);
  };

  return (
    <div className={cx("chat", styles.chat)}>
      <header className={styles.header}>
        <button
          type="button"
          className={cx("btn icon-only", styles.sidebarToggle)}
          aria-label={sidebarOpen ? "Hide sessions" : "Show sessions"}
          aria-expanded={sidebarOpen}
          aria-controls="sessions-sidebar"
          onClick={() => (phone ? setDrawer(!drawer) : setPinned(!pinned))}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <Link href="/" className={cx("back-link", styles.back)} aria-label="All sessions">
          ← <span className={styles.backText}>Sessions</span>
        </Link>
        <h1 className={styles.title}>New chat</h1>
        <span className={cx("badge", styles.badge)} title="Model">
          {model.label}
        </span>
        <span className={styles.notPhone}>
          <SearchButton compact />
        </span>
        <ThemeToggle />
        <AccountMenu {...account} compact className={styles.notPhone} />
      </header>
      <main className={styles.main}>
        {sidebarOpen && (
          <div className={cx(styles.sidebarPane, phone && styles.sidebarDrawer)}>
            <SessionsSidebar currentId={null} onNavigate={() => setDrawer(false)} />
          </div>
        )}
        {phone && drawer && (
          <div className={styles.backdrop} aria-hidden="true" onClick={() => setDrawer(false)} />
        )}
        <section className={cx("chat-pane", styles.chatPane)} {...drop.handlers}>
          {drop.dragging && <DropCue />}
          <p className={styles.newChatHint}>
            Send a message to start a new chat. Nothing is saved until you do.
          </p>
          {error && (
            <div className="banner banner-error" role="alert">
              {error}
            </div>
          )}
          <form
            className={composer.composer}
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
            onPaste={pasteFiles(draftFiles.add)}
          >
            <AttachmentTray
              files={files}
              onRemove={draftFiles.remove}
              blocker={overTotal(files, caps)}
              warning={warning}
            />
            <AttachButton onFiles={draftFiles.add} disabled={busy} />
            <textarea
              className={cx("field", composer.box)}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  void submit();
                }
              }}
              placeholder="Message"
              aria-label="Message"
              rows={Math.min(8, Math.max(1, text.split("\n").length))}
            />
            <button
              type="submit"
              className="btn btn-primary"
              disabled={busy || (text.trim() === "" && files.length === 0)}
            >
              Send
            </button>
          </form>
        </section>
      </main>
    </div>
  );
}
