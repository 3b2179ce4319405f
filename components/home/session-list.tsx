"use client";

import Link from "next/link";
import { useEffect, useRef, useState, useTransition } from "react";
import { listSessionsPage } from "@/app/actions";
import type { SessionListItem } from "@/lib/engine/types";
import { DeleteSessionButton } from "./delete-session-button";
import s from "./home.module.css";
import { LocalTime } from "@/components/ui/local-time";
import { cx } from "@/components/ui/cx";

export interface SessionListProps {
  readonly first: { sessions: readonly SessionListItem[]; nextCursor: string | null };
}

const plural = (n: number, one: string) =>
  `${n.toLocaleString("en")} ${one}${n === 1 ? "" : one.endsWith("h") ? "es" : "s"}`;

/**
 * The viewer's sessions, newest activity first, a page at a time: the next page loads when
 * the end of the list scrolls into view (or from the button, for keyboards and slow
 * scrolling); the filter asks the server, so it covers every session, not the loaded ones.
 */
export function SessionList({ first }: SessionListProps) {
  const [rows, setRows] = useState(first.sessions);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const sentinel = useRef<HTMLDivElement>(null);
  // The query a page was asked for: an answer to an older query is dropped.
  const asked = useRef("");

  const load = (q: string, after: string | null) =>
    startTransition(async () => {
      asked.current = q;
      const page = await listSessionsPage({ q, cursor: after });
      if (asked.current !== q) return;
      if (!page.ok) return setError(page.error.message);
      setError(null);
      setRows((old) => (after === null ? page.value.sessions : [...old, ...page.value.sessions]));
      setCursor(page.value.nextCursor);
    });

  // The filter asks the server once typing pauses, not per keystroke.
  const typed = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typed.current), []);

  useEffect(() => {
    const el = sentinel.current;
    // After a failed page the button retries; scrolling does not hammer the server.
    if (!el || cursor === null || error !== null) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !pending) load(query, cursor);
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [cursor, query, pending, error]);

  const filtered = query.trim() !== "";
  return (
    <section aria-label="Your sessions">
      <div className={s.listTools}>
        <input
          type="search"
          className={s.filter}
          placeholder="Filter by title"
          aria-label="Filter sessions by title"
          value={query}
          maxLength={200}
          onChange={(e) => {
            const q = e.target.value;
            setQuery(q);
            clearTimeout(typed.current);
            typed.current = setTimeout(() => load(q, null), 250);
          }}
        />
      </div>
      {error && (
        <p className="banner banner-error" role="alert">
          {error}
        </p>
      )}
      {rows.length === 0 ? (
        <p className={cx("empty", s.empty)}>
          {filtered ? "No session has that in its title." : "No sessions yet. Start one above."}
        </p>
      ) : (
        <ul className={cx("session-list", s.sessionList)} aria-label="Sessions" aria-busy={pending}>
          {rows.map((row) => (
            <li key={row.id} className={cx("session-row", s.sessionRow)}>
              <Link className={cx("session-link", s.sessionLink)} href={`/s/${row.id}`}>
                <span className={cx("session-title", s.sessionTitle)}>{row.title}</span>
                <span className={s.meta}>
                  <span className={s.counts}>
                    {plural(row.nodeCount, "node")} · {plural(row.branchCount, "branch")}
                  </span>
                  <LocalTime className={cx("session-when", s.sessionWhen)} iso={row.updatedAt} />
                </span>
              </Link>
              <DeleteSessionButton
                id={row.id}
                title={row.title}
                onDeleted={() => setRows((old) => old.filter((r) => r.id !== row.id))}
              />
            </li>
          ))}
        </ul>
      )}
      {cursor !== null && (
        <div ref={sentinel} className={s.more}>
          <button className="btn" disabled={pending} onClick={() => load(query, cursor)}>
            {pending ? "Loading…" : "Load more"}
          </button>
        </div>
      )}
    </section>
  );
}
