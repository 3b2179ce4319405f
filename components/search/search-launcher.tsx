"use client";

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { SearchDialog } from "./search-dialog";
import styles from "./search.module.css";

/** Opens the one search dialog of the page; null outside a SearchProvider. */
const OpenSearch = createContext<(() => void) | null>(null);

/**
 * Mounted once around every page (app/layout.tsx): owns the search dialog and its shortcut,
 * Ctrl-K / ⌘-K anywhere, so any number of SearchButtons open the same dialog.
 */
export function SearchProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <OpenSearch.Provider value={show}>
      {children}
      <SearchDialog open={open} onClose={() => setOpen(false)} />
    </OpenSearch.Provider>
  );
}

/** Opens the page's search dialog; null outside a SearchProvider. */
export function useOpenSearch(): (() => void) | null {
  return useContext(OpenSearch);
}

const noSubscription = () => () => {};
const isApple = () => /Mac|iPhone|iPad/.test(window.navigator.platform);

/**
 * The visible way in, for headers: "Search" with the shortcut the platform uses (in a
 * crowded header, `compact`, the shortcut is in the tooltip only).
 */
export function SearchButton({
  className,
  compact = false,
}: {
  className?: string | undefined;
  compact?: boolean;
}) {
  const open = useContext(OpenSearch);
  // Known only in the browser; the server renders the Ctrl form.
  const apple = useSyncExternalStore(noSubscription, isApple, () => false);
  if (open === null) return null;
  return (
    <button
      type="button"
      className={className ? `${styles.button} ${className}` : styles.button}
      onClick={open}
      aria-keyshortcuts="Control+K Meta+K"
      title={apple ? "Search (⌘K)" : "Search (Ctrl K)"}
    >
      Search {!compact && <kbd className={styles.kbd}>{apple ? "⌘K" : "Ctrl K"}</kbd>}
    </button>
  );
}
