"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { newSessionAction } from "@/app/actions";
import { AccountMenu, type AccountMenuProps } from "@/components/account/account-menu";
import { SearchButton } from "@/components/search/search-launcher";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { cx } from "@/components/ui/cx";
import { useEscapeKey } from "@/components/ui/use-escape-key";
import { pageDrafts, useDraft } from "./drafts";
import { SessionsSidebar } from "./sessions-sidebar";
import { useHeaderLayout } from "./use-narrow-screen";
import { firstMessageKey, useNewChatShortcut, useSidebarPinned } from "./use-sidebar";
import styles from "./chat-app.module.css";
import composer from "./composer.module.css";

/** The new chat's draft is kept under this id until the chat exists. */
const NEW = "new";

/**
 * A new chat (issue 21): nothing is written until its first message is sent — then the
 * session is created, the message handed to its page (session storage) and sent there, so
 * "New chat" leaves no empty session behind.
 */
export function NewChat({ account, model }: { account: AccountMenuProps; model: string }) {
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

  const submit = async () => {
    const content = text;
    if (busy || content.trim() === "") return;
    setBusy(true);
    setError(null);
    const created = await newSessionAction({});
    if (!created.ok) {
      setBusy(false);
      setError(created.error.message);
      return;
    }
    try {
      window.sessionStorage.setItem(firstMessageKey(created.value.id), content);
    } catch {
      // No session storage: the message stays the new chat's draft instead.
      pageDrafts.put(created.value.id, content);
    }
    pageDrafts.put(NEW, "");
    router.push(`/s/${created.value.id}`);
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
          {model}
        </span>
        <span className={styles.notPhone}>
          <SearchButton compact />
        </span>
        <ThemeToggle />
        <AccountMenu {...account} compact className={styles.wideOnly} />
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
        <section className={cx("chat-pane", styles.chatPane)}>
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
          >
            <textarea
              className="field"
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
            <button type="submit" className="btn btn-primary" disabled={busy || text.trim() === ""}>
              Send
            </button>
          </form>
        </section>
      </main>
    </div>
  );
}
