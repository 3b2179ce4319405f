"use client";

import Link from "next/link";
import { useRef } from "react";
import { useSessionPages } from "@/components/home/use-session-pages";
import { LocalTime } from "@/components/ui/local-time";
import { cx } from "@/components/ui/cx";
import styles from "./sessions-sidebar.module.css";

/**
 * The sessions beside a chat (issue 21): "New chat" at the top, the same paged list and
 * title filter as the home page (recent first), the open session marked. A pane on wide
 * screens, a drawer over the page on phones (chat-app.tsx decides).
 */
export function SessionsSidebar({
  currentId,
  onNavigate,
}: {
  /** The open session; null on the new-chat page. */
  readonly currentId: string | null;
  /** Called when a link is followed (a drawer closes). */
  readonly onNavigate: () => void;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const pages = useSessionPages(null, sentinel);
  const filtered = pages.query.trim() !== "";
  return (
    <nav id="sessions-sidebar" className={styles.sidebar} aria-label="Sessions sidebar">
      <Link
        href="/new"
        className={cx("btn btn-primary", styles.newChat)}
        aria-current={currentId === null ? "page" : undefined}
        aria-keyshortcuts="Control+Shift+O Meta+Shift+O"
        title="New chat (Ctrl/⌘-Shift-O)"
        onClick={onNavigate}
      >
        New chat
      </Link>
      <input
        type="search"
        className={styles.filter}
        placeholder="Filter by title"
        aria-label="Filter sessions by title"
        value={pages.query}
        maxLength={200}
        onChange={(e) => pages.setQuery(e.target.value)}
      />
      {pages.error && (
        <p className={styles.error} role="alert">
          {pages.error}
        </p>
      )}
      {pages.loaded && pages.rows.length === 0 ? (
        <p className={styles.empty}>
          {filtered ? "No session has that in its title." : "No sessions yet."}
        </p>
      ) : (
        <ul className={styles.list} aria-label="Recent sessions" aria-busy={pages.pending}>
          {pages.rows.map((row) => (
            <li key={row.id}>
              <Link
                href={`/s/${row.id}`}
                className={cx(styles.row, row.id === currentId && styles.current)}
                aria-current={row.id === currentId ? "page" : undefined}
                onClick={onNavigate}
              >
                <span className={styles.title}>{row.title}</span>
                <LocalTime className={styles.when ?? ""} iso={row.updatedAt} />
              </Link>
            </li>
          ))}
        </ul>
      )}
      {pages.cursor !== null && (
        <div ref={sentinel} className={styles.more}>
          <button className="btn" disabled={pages.pending} onClick={pages.more}>
            {pages.pending ? "Loading…" : "Load more"}
          </button>
        </div>
      )}
    </nav>
  );
}
