"use client";

import { useEffect, useSyncExternalStore } from "react";
import { useRouter } from "next/navigation";

/** Whether the sessions sidebar is pinned open on wide screens, remembered in this browser. */
const KEY = "spindle.sidebar";
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return window.localStorage.getItem(KEY) === "open";
  } catch {
    return false;
  }
}

/** The wide-screen sidebar's state (closed until opened; the server renders it closed). */
export function useSidebarPinned(): [boolean, (open: boolean) => void] {
  const open = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    read,
    () => false,
  );
  const set = (next: boolean) => {
    try {
      window.localStorage.setItem(KEY, next ? "open" : "closed");
    } catch {
      // Not remembered; this page still follows the click.
    }
    for (const l of listeners) l();
  };
  return [open, set];
}

/** Ctrl/⌘-Shift-O anywhere on the page starts a new chat (written at its first message). */
export function useNewChatShortcut(): void {
  const router = useRouter();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || !e.shiftKey || e.altKey) return;
      if (e.key.toLowerCase() !== "o") return;
      e.preventDefault();
      router.push("/new");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);
}

/** Where the new-chat page leaves a new session's first message for the chat page to send. */
export const firstMessageKey = (sessionId: string) => `spindle.first.${sessionId}`;

/** The first message the new-chat page left for `sessionId`, removed as it is read. */
export function takeFirstMessage(sessionId: string): string | null {
  try {
    const text = window.sessionStorage.getItem(firstMessageKey(sessionId));
    window.sessionStorage.removeItem(firstMessageKey(sessionId));
    return text;
  } catch {
    return null;
  }
}
