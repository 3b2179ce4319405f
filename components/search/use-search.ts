"use client";

import { useCallback, useEffect, useState } from "react";
import type { SearchHit } from "@/lib/search/search-hit";
import { searchPageSchema } from "@/lib/http/answers";
import { errorOf } from "@/components/ui/api-error";
import { readAnswer } from "@/components/ui/read-answer";

/** How long typing must pause before a query is sent. */
export const SEARCH_DEBOUNCE_MS = 200;
const PAGE_SIZE = 20;

interface Answer {
  /** The query this answer is for: an answer to an older query is never shown. */
  readonly query: string;
  readonly results: readonly SearchHit[];
  readonly nextCursor: string | null;
  readonly error: string | null;
}

export interface SearchView {
  readonly results: readonly SearchHit[];
  readonly loading: boolean;
  readonly error: string | null;
  readonly hasMore: boolean;
  loadMore(): void;
}

async function fetchPage(query: string, cursor: string | null, signal?: AbortSignal) {
  const params = new URLSearchParams({ q: query, limit: String(PAGE_SIZE) });
  if (cursor) params.set("cursor", cursor);
  const res = await fetch(`/api/search?${params}`, {
    signal: signal ?? null,
    headers: { accept: "application/json" },
  });
  if (!res.ok) throw new Error(await errorOf(res, `Search failed (${res.status}).`));
  return readAnswer(res, searchPageSchema);
}

/**
 * The results for `query`, fetched once typing pauses. Everything shown is derived from the
 * latest answer and the current query, so a slow answer to an older query never replaces a
 * newer one, and an empty query shows nothing without a request.
 */
export function useSearch(query: string): SearchView {
  const q = query.trim();
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (q === "") return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      fetchPage(q, null, abort.signal).then(
        (page) => setAnswer({ query: q, ...page, error: null }),
        (e: unknown) => {
          if (abort.signal.aborted) return;
          setAnswer({
            query: q,
            results: [],
            nextCursor: null,
            error: String((e as Error).message),
          });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [q]);

  const current = answer !== null && answer.query === q ? answer : null;
  const cursor = current?.nextCursor ?? null;
  const loadMore = useCallback(() => {
    if (cursor === null) return;
    fetchPage(q, cursor).then(
      (page) =>
        setAnswer((prev) =>
          prev && prev.query === q && prev.nextCursor === cursor
            ? { ...prev, results: [...prev.results, ...page.results], nextCursor: page.nextCursor }
            : prev,
        ),
      (e: unknown) =>
        setAnswer((prev) =>
          prev && prev.query === q ? { ...prev, error: String((e as Error).message) } : prev,
        ),
    );
  }, [q, cursor]);

  return {
    results: q === "" ? [] : (current?.results ?? []),
    loading: q !== "" && current === null,
    error: current?.error ?? null,
    hasMore: cursor !== null,
    loadMore,
  };
}
