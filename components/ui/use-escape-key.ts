"use client";

import { useEffect, useRef } from "react";

/**
 * Calls `onEscape` on Escape while `active` — unless the key was for someone else: another
 * control used it (`defaultPrevented`: the search field, a menu) or a dialog is open (the
 * dialog closes on it). For the page's drawers and its Esc-stops-the-reply.
 */
export function useEscapeKey(active: boolean, onEscape: (e: KeyboardEvent) => void): void {
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      if (document.querySelector("dialog[open]")) return;
      latest.current(e);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active]);
}
