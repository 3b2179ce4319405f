"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { SearchHit } from "@/lib/search/search-hit";
import styles from "./search.module.css";
import { useSearch } from "./use-search";

const KIND_LABEL: Record<SearchHit["kind"], string> = {
  user: "You",
  assistant: "Assistant",
  summary: "Summary",
  title: "Title",
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** Where a result opens: the session, checked out at the node (see docs/decisions.md). */
export function hrefOf(hit: SearchHit): string {
  const session = `/s/${encodeURIComponent(hit.sessionId)}`;
  return hit.nodeId === null ? session : `${session}?node=${encodeURIComponent(hit.nodeId)}`;
}

/** Matched words in <mark>, the rest as text: segments only, never HTML. */
function Snippet({ segments }: { segments: SearchHit["snippet"] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.hit ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>,
      )}
    </>
  );
}

/**
 * The search modal: a native <dialog> opened with showModal(), so the page behind is inert
 * (focus stays inside), Esc closes it and it is announced as a modal dialog. The input is a
 * combobox over a listbox of results: arrow keys move, Enter opens.
 */
export function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const { results, loading, error, hasMore, loadMore } = useSearch(query);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;
  const current = Math.min(active, Math.max(results.length - 1, 0));
  const activeId = results.length > 0 ? optionId(current) : undefined;

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      input.current?.select();
    } else if (!open && d.open) d.close();
  }, [open]);

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    onClose();
    // A full load: the session page prepares HEAD and the chat builds its store from that.
    window.location.assign(hrefOf(hit));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = results.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (n > 0) setActive((current + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(results[current]);
    } else if (e.key === "Escape") {
      // A search field's own Escape only clears it; here one Escape closes the dialog.
      e.preventDefault();
      onClose();
    }
  };

  const status = error
    ? error
    : query.trim() === ""
      ? "Type to search your conversations."
      : loading
        ? "Searching…"
        : results.length === 0
          ? "No matches."
          : `${results.length}${hasMore ? "+" : ""} result${results.length === 1 ? "" : "s"}`;

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-label="Search conversations"
      onClose={onClose}
      onClick={(e) => {
        if (e.target === dialog.current) onClose();
      }}
    >
      <div className={styles.panel}>
        <input
          ref={input}
          className={styles.input}
          type="search"
          placeholder="Search conversations"
          aria-label="Search conversations"
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          autoComplete="off"
          spellCheck={false}
          maxLength={500}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <p className={error ? `${styles.status} ${styles.error}` : styles.status} role="status">
          {status}
        </p>
        <ul id={listId} className={styles.list} role="listbox" aria-label="Results">
          {results.map((hit, i) => (
            <li
              key={`${hit.sessionId}:${hit.nodeId ?? "title"}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className={styles.option}
              onMouseMove={() => setActive(i)}
              onClick={() => choose(hit)}
            >
              <span className={styles.meta}>
                <span className={styles.title}>{hit.sessionTitle}</span>
                <span className={styles.kind}>{KIND_LABEL[hit.kind]}</span>
                {hit.kind !== "title" && hit.attachment && (
                  <span
                    className={styles.file}
                    title={`Found in the attached file ${hit.attachment.name}`}
                  >
                    in {hit.attachment.name}
                  </span>
                )}
                {!hit.onHeadSpine && (
                  <span className={styles.dead} title="Opening it switches to that branch">
                    dead branch
                  </span>
                )}
                <span className={styles.when}>{when.format(new Date(hit.updatedAt))}</span>
              </span>
              <span className={styles.snippet}>
                <Snippet segments={hit.snippet} />
              </span>
            </li>
          ))}
        </ul>
        {hasMore && (
          <button type="button" className={styles.more} onClick={loadMore}>
            More results
          </button>
        )}
      </div>
    </dialog>
  );
}
