import { useCallback, useEffect, useSyncExternalStore } from "react";

/**
 * The composer's drafts, one per session, kept in the browser's local storage until the
 * message is sent (issue 21). Nothing here can throw at the page: a full or missing store,
 * a malformed entry or a huge draft is ignored or trimmed.
 */

/** The longest draft kept (characters); a longer one is trimmed to this. */
export const DRAFT_MAX_CHARS = 100_000;
/** The most drafts kept; saving one more forgets the oldest. */
export const DRAFT_MAX_SESSIONS = 50;

const PREFIX = "spindle.draft.";

/** The part of `Storage` the drafts use (a test passes a Map-backed one). */
export interface DraftStore {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface Entry {
  readonly text: string;
  readonly savedAt: number;
}

function parse(raw: string | null): Entry | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return null;
    const { text, savedAt } = value as Record<string, unknown>;
    if (typeof text !== "string" || typeof savedAt !== "number") return null;
    return { text, savedAt };
  } catch {
    return null;
  }
}

/** The browser's local storage, or null where there is none or it refuses access. */
export function browserDrafts(): DraftStore | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The saved draft of `sessionId` (trimmed to DRAFT_MAX_CHARS), or "" when there is none. */
export function loadDraft(store: DraftStore | null, sessionId: string): string {
  try {
    const raw = store?.getItem(PREFIX + sessionId) ?? null;
    const entry = parse(raw);
    if (raw !== null && entry === null) store?.removeItem(PREFIX + sessionId);
    return entry ? entry.text.slice(0, DRAFT_MAX_CHARS) : "";
  } catch {
    return "";
  }
}

/** Every saved draft's key and time, oldest first. */
function entries(store: DraftStore): { key: string; savedAt: number }[] {
  const out: { key: string; savedAt: number }[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key === null || !key.startsWith(PREFIX)) continue;
    out.push({ key, savedAt: parse(store.getItem(key))?.savedAt ?? 0 });
  }
  return out.sort((a, b) => a.savedAt - b.savedAt);
}

/**
 * Keeps `text` as the draft of `sessionId` (an empty or blank one removes it). A draft over
 * DRAFT_MAX_CHARS is trimmed; past DRAFT_MAX_SESSIONS drafts the oldest go; a store that
 * is full or refuses writes leaves the draft unsaved.
 */
export function saveDraft(
  store: DraftStore | null,
  sessionId: string,
  text: string,
  now: number,
): void {
  if (!store) return;
  const key = PREFIX + sessionId;
  try {
    if (text.trim() === "") {
      store.removeItem(key);
      return;
    }
    const known = store.getItem(key) !== null;
    store.setItem(key, JSON.stringify({ text: text.slice(0, DRAFT_MAX_CHARS), savedAt: now }));
    if (known) return;
    const all = entries(store);
    for (const old of all.slice(0, Math.max(0, all.length - DRAFT_MAX_SESSIONS))) {
      store.removeItem(old.key);
    }
  } catch {
    // Full, or storage disabled: the draft lives only in the page.
  }
}

/** Forgets the draft of `sessionId` (the session was deleted). */
export function dropDraft(store: DraftStore | null, sessionId: string): void {
  try {
    store?.removeItem(PREFIX + sessionId);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** How long typing must pause before the draft is written to the store (milliseconds). */
export const DRAFT_SAVE_DELAY_MS = 300;

/**
 * The drafts as one page holds them: each read from the store once, then kept in memory.
 * An edit shows at once and reaches the store after a pause in typing, so a keystroke
 * never pays for a (up to DRAFT_MAX_CHARS) synchronous write; `flush` writes what waits.
 */
export interface DraftBook {
  /** The draft of `sessionId` (read from the store the first time). */
  get(sessionId: string): string;
  /** An edit: held at once, written after DRAFT_SAVE_DELAY_MS without another. */
  keep(sessionId: string, text: string): void;
  /** Held and written at once (a message handed over, a sent chat's box emptied). */
  put(sessionId: string, text: string): void;
  /** Puts `text` back as the draft unless another is being typed; whether it did. */
  restore(sessionId: string, text: string): boolean;
  /** Forgets the draft, held and stored (the session was deleted). */
  forget(sessionId: string): void;
  /** Writes every edit still waiting. */
  flush(): void;
  subscribe(listener: () => void): () => void;
}

export function createDraftBook(
  store: () => DraftStore | null,
  now: () => number = Date.now,
  delayMs = DRAFT_SAVE_DELAY_MS,
): DraftBook {
  const held = new Map<string, string>();
  const unsaved = new Map<string, string>();
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const get = (sessionId: string) => {
    let text = held.get(sessionId);
    if (text === undefined) {
      text = loadDraft(store(), sessionId);
      held.set(sessionId, text);
    }
    return text;
  };
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (unsaved.size === 0) return;
    const target = store();
    const at = now();
    for (const [sessionId, text] of unsaved) saveDraft(target, sessionId, text, at);
    unsaved.clear();
  };
  const put = (sessionId: string, text: string) => {
    held.set(sessionId, text);
    unsaved.delete(sessionId);
    saveDraft(store(), sessionId, text, now());
    changed();
  };
  return {
    get,
    keep(sessionId, text) {
      if (get(sessionId) === text) return;
      held.set(sessionId, text);
      unsaved.set(sessionId, text);
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(flush, delayMs);
      changed();
    },
    put,
    restore(sessionId, text) {
      if (get(sessionId).trim() !== "") return false;
      put(sessionId, text);
      return true;
    },
    forget(sessionId) {
      held.set(sessionId, "");
      unsaved.delete(sessionId);
      dropDraft(store(), sessionId);
      changed();
    },
    flush,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** This page's drafts, in the browser's local storage. */
export const pageDrafts: DraftBook = createDraftBook(browserDrafts);

const noDraft = () => "";
const flushWhenHidden = () => {
  if (document.visibilityState === "hidden") pageDrafts.flush();
};

/**
 * The draft of `sessionId` and its setter, for a message box. The server renders an empty
 * box; once hydrated it shows the saved draft. Edits are written after a pause in typing,
 * and at once when the page is left or hidden, the box unmounts or its session changes.
 */
export function useDraft(
  sessionId: string,
): readonly [string, (next: string | ((current: string) => string)) => void] {
  const text = useSyncExternalStore(pageDrafts.subscribe, () => pageDrafts.get(sessionId), noDraft);
  useEffect(() => {
    window.addEventListener("pagehide", pageDrafts.flush);
    document.addEventListener("visibilitychange", flushWhenHidden);
    return () => {
      window.removeEventListener("pagehide", pageDrafts.flush);
      document.removeEventListener("visibilitychange", flushWhenHidden);
      pageDrafts.flush();
    };
  }, [sessionId]);
  const setText = useCallback(
    (next: string | ((current: string) => string)) =>
      pageDrafts.keep(
        sessionId,
        typeof next === "function" ? next(pageDrafts.get(sessionId)) : next,
      ),
    [sessionId],
  );
  return [text, setText];
}
