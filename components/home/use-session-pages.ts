"use client";

import { useEffect, useRef, useState, useTransition, type RefObject } from "react";
import { listSessionsPage } from "@/app/actions";
import type { SessionListItem } from "@/lib/engine/types";

export interface SessionPage {
  readonly sessions: readonly SessionListItem[];
  readonly nextCursor: string | null;
}

/**
 * The viewer's sessions, newest activity first, a page at a time (home's list and the chat
 * page's sidebar): the next page loads when `sentinel` scrolls into view or on `more()`; the
 * title filter asks the server once typing pauses, so it covers every session. Without a
 * first page (the sidebar), the first is asked for on mount.
 */
export function useSessionPages(
  first: SessionPage | null,
  sentinel: RefObject<HTMLElement | null>,
) {
  const [rows, setRows] = useState<readonly SessionListItem[]>(first?.sessions ?? []);
  const [cursor, setCursor] = useState(first?.nextCursor ?? null);
  const [loaded, setLoaded] = useState(first !== null);
  const [query, setQueryState] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // The query a page was asked for: an answer to an older query is dropped.
  const asked = useRef("");

  const load = (q: string, after: string | null) =>
    startTransition(async () => {
      asked.current = q;
      const page = await listSessionsPage({ q, cursor: after });
      if (asked.current !== q) return;
      if (!page.ok) return setError(page.error.message);
      setError(null);
      setLoaded(true);
      setRows((old) => (after === null ? page.value.sessions : [...old, ...page.value.sessions]));
      setCursor(page.value.nextCursor);
    });

  const typed = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typed.current), []);

  // The sidebar has no server-rendered page: the first is asked for once mounted.
  const started = useRef(first !== null);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    load("", null);
  }, []);

  useEffect(() => {
    const el = sentinel.current;
    // After a failed page the button retries; scrolling does not hammer the server.
    if (!el || cursor === null || error !== null) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !pending) load(query, cursor);
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [cursor, query, pending, error, sentinel]);

  return {
    rows,
    cursor,
    query,
    error,
    pending,
    loaded,
    /** Sets the filter; the server is asked once typing pauses. */
    setQuery: (q: string) => {
      setQueryState(q);
      clearTimeout(typed.current);
      typed.current = setTimeout(() => load(q, null), 250);
    },
    more: () => load(query, cursor),
    remove: (id: string) => setRows((old) => old.filter((r) => r.id !== id)),
  };
}
