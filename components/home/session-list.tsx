"use client";

import Link from "next/link";
import { useRef } from "react";
import type { SessionListItem } from "@/lib/engine/types";
import { DeleteSessionButton } from "./delete-session-button";
import s from "./home.module.css";
import { useSessionPages } from "./use-session-pages";
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
  const sentinel = useRef<HTMLDivElement>(null);
  const { rows, cursor, query, error, pending, setQuery, more, remove } = useSessionPages(
    first,
    sentinel,
  );

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
          onChange={(e) => setQuery(e.target.value)}
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
              <DeleteSessionButton id={row.id} title={row.title} onDeleted={() => remove(row.id)} />
            </li>
          ))}
        </ul>
      )}
      {cursor !== null && (
        <div ref={sentinel} className={s.more}>
          <button className="btn" disabled={pending} onClick={more}>
            {pending ? "Loading…" : "Load more"}
          </button>
        </div>
      )}
    </section>
  );
}
