"use client";

import { useEffect, useSyncExternalStore } from "react";
import { useRouter } from "next/navigation";
import type { AttachmentRef } from "@/lib/engine/types";

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
const firstMessageKey = (sessionId: string) => `spindle.first.${sessionId}`;

/** The hand-over where the browser keeps no session storage (the navigation is in-page). */
const handedInPage = new Map<string, FirstMessage>();

/** A new chat's first message: its text and the files already uploaded to its session. */
export interface FirstMessage {
  readonly text: string;
  readonly attachments: readonly AttachmentRef[];
}

/**
 * Leaves the first message for the chat page: in session storage, so a reload on the way
 * keeps it; in the page where there is none.
 */
export function handFirstMessage(sessionId: string, first: FirstMessage): void {
  try {
    window.sessionStorage.setItem(firstMessageKey(sessionId), JSON.stringify(first));
  } catch {
    handedInPage.set(sessionId, first);
  }
}

function parseFirst(raw: string): FirstMessage {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "object" && value !== null) {
      const { text, attachments } = value as Record<string, unknown>;
      if (typeof text === "string") {
        return {
          text,
          attachments: Array.isArray(attachments) ? (attachments as AttachmentRef[]) : [],
        };
      }
    }
  } catch {
    // Left by an older page: the plain text of the message.
  }
  return { text: raw, attachments: [] };
}

/** The first message the new-chat page left for `sessionId`, removed as it is read. */
export function takeFirstMessage(sessionId: string): FirstMessage | null {
  const inPage = handedInPage.get(sessionId);
  if (inPage) {
    handedInPage.delete(sessionId);
    return inPage;
  }
  try {
    const raw = window.sessionStorage.getItem(firstMessageKey(sessionId));
    window.sessionStorage.removeItem(firstMessageKey(sessionId));
    return raw === null ? null : parseFirst(raw);
  } catch {
    return null;
  }
}
