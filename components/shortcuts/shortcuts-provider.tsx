"use client";

import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { ShortcutsDialog } from "./shortcuts-dialog";

const OpenShortcuts = createContext<(() => void) | null>(null);

/** Where typing a `?` is text, not a shortcut. */
const TYPING = "input, textarea, select, [contenteditable]:not([contenteditable='false'])";

/**
 * The `?` list of keyboard shortcuts for the page below it: `?` anywhere outside a text
 * field opens it, and `useShowShortcuts()` gives the buttons that open it too.
 */
export function ShortcutsProvider({ children }: { readonly children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const target = e.target;
      if (target instanceof Element && target.closest(TYPING)) return;
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <OpenShortcuts.Provider value={show}>
      {children}
      <ShortcutsDialog open={open} onClose={() => setOpen(false)} />
    </OpenShortcuts.Provider>
  );
}

/** Opens the shortcuts list (a no-op outside a ShortcutsProvider). */
export function useShowShortcuts(): () => void {
  return useContext(OpenShortcuts) ?? noop;
}

function noop() {}
