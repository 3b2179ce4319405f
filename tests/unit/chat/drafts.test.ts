import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createDraftBook,
  DRAFT_MAX_CHARS,
  DRAFT_SAVE_DELAY_MS,
  DRAFT_MAX_SESSIONS,
  dropDraft,
  loadDraft,
  saveDraft,
  type DraftStore,
} from "@/components/chat/drafts";

/** localStorage's behaviour over a Map, with an optional quota in characters. */
function memoryStore(quota = Infinity): DraftStore & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      const used = [...map].reduce((n, [key, val]) => n + (key === k ? 0 : val.length), 0);
      if (used + v.length > quota) throw new DOMException("full", "QuotaExceededError");
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
  };
}

describe("[R209] the composer's draft is kept per session until sent", () => {
  it("[R209] a draft is saved per session, read back, and removed when emptied (sent)", () => {
    const store = memoryStore();
    saveDraft(store, "A", "half a thought", 1);
    saveDraft(store, "B", "another", 2);
    expect(loadDraft(store, "A")).toBe("half a thought");
    expect(loadDraft(store, "B")).toBe("another");
    expect(loadDraft(store, "C")).toBe("");
    saveDraft(store, "A", "", 3);
    expect(loadDraft(store, "A")).toBe("");
    expect(store.map.size).toBe(1);
    dropDraft(store, "B");
    expect(store.map.size).toBe(0);
  });

  it("[R209] a 1 MB draft is trimmed, a full store or a malformed entry is no crash", () => {
    const store = memoryStore();
    const huge = "x".repeat(1024 * 1024);
    saveDraft(store, "A", huge, 1);
    expect(loadDraft(store, "A")).toHaveLength(DRAFT_MAX_CHARS);
    // Written by an older page or by hand: trimmed on the way in too.
    store.map.set("spindle.draft.B", JSON.stringify({ text: huge, savedAt: 1 }));
    expect(loadDraft(store, "B")).toHaveLength(DRAFT_MAX_CHARS);
    store.map.set("spindle.draft.C", "{not json");
    expect(loadDraft(store, "C")).toBe("");
    expect(store.map.has("spindle.draft.C")).toBe(false);

    const full = memoryStore(10);
    expect(() => saveDraft(full, "A", "more than ten characters", 1)).not.toThrow();
    expect(loadDraft(full, "A")).toBe("");
    expect(loadDraft(null, "A")).toBe("");
    expect(() => saveDraft(null, "A", "x", 1)).not.toThrow();
  });

  it("[R209] past the limit the oldest drafts are forgotten", () => {
    const store = memoryStore();
    for (let i = 0; i < DRAFT_MAX_SESSIONS + 5; i++) saveDraft(store, `S${i}`, `draft ${i}`, i);
    expect(store.map.size).toBe(DRAFT_MAX_SESSIONS);
    expect(loadDraft(store, "S0")).toBe("");
    expect(loadDraft(store, `S${DRAFT_MAX_SESSIONS + 4}`)).toBe(`draft ${DRAFT_MAX_SESSIONS + 4}`);
  });
});

describe("[R209] the page's drafts are written after a pause in typing", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("[R209] reads a session's draft from the store once, then holds it", () => {
    const store = memoryStore();
    saveDraft(store, "s1", "kept", 1);
    const getItem = vi.spyOn(store, "getItem");
    const book = createDraftBook(
      () => store,
      () => 2,
    );
    expect(book.get("s1")).toBe("kept");
    expect(book.get("s1")).toBe("kept");
    expect(book.get("s2")).toBe("");
    expect(getItem).toHaveBeenCalledTimes(2);
  });

  it("[R209] shows each edit at once and writes only the last, after the pause", () => {
    const store = memoryStore();
    const setItem = vi.spyOn(store, "setItem");
    const book = createDraftBook(
      () => store,
      () => 5,
    );
    const seen: string[] = [];
    book.subscribe(() => seen.push(book.get("s1")));
    book.keep("s1", "h");
    book.keep("s1", "he");
    vi.advanceTimersByTime(DRAFT_SAVE_DELAY_MS - 1);
    book.keep("s1", "hey");
    expect(seen).toEqual(["h", "he", "hey"]);
    vi.advanceTimersByTime(DRAFT_SAVE_DELAY_MS - 1);
    expect(setItem).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(loadDraft(store, "s1")).toBe("hey");
  });

  it("[R209] a flush writes what waits at once, and an emptied box forgets the draft", () => {
    const store = memoryStore();
    saveDraft(store, "s1", "old", 1);
    const book = createDraftBook(
      () => store,
      () => 9,
    );
    book.keep("s1", "new");
    book.keep("s2", "other");
    book.flush();
    expect(loadDraft(store, "s1")).toBe("new");
    expect(loadDraft(store, "s2")).toBe("other");
    book.keep("s1", "");
    book.flush();
    expect(store.map.has("spindle.draft.s1")).toBe(false);
    // Nothing waits: the timer writes nothing more.
    const setItem = vi.spyOn(store, "setItem");
    vi.runAllTimers();
    expect(setItem).not.toHaveBeenCalled();
  });

  it("[R209] a put is written at once and drops the edit waiting for it", () => {
    const store = memoryStore();
    const book = createDraftBook(
      () => store,
      () => 3,
    );
    book.keep("new", "a first message");
    book.put("new", "");
    vi.runAllTimers();
    expect(store.map.has("spindle.draft.new")).toBe(false);
    expect(book.get("new")).toBe("");
  });

  it("[R209] a message put back shows as the draft unless another is being typed", () => {
    const store = memoryStore();
    const book = createDraftBook(
      () => store,
      () => 3,
    );
    expect(book.restore("s1", "lost first message")).toBe(true);
    expect(book.get("s1")).toBe("lost first message");
    expect(loadDraft(store, "s1")).toBe("lost first message");
    book.keep("s2", "typed meanwhile");
    expect(book.restore("s2", "lost first message")).toBe(false);
    expect(book.get("s2")).toBe("typed meanwhile");
  });

  it("[R209] a forgotten draft is not written back by an edit still waiting", () => {
    const store = memoryStore();
    const book = createDraftBook(
      () => store,
      () => 3,
    );
    book.keep("s1", "about a deleted session");
    book.forget("s1");
    vi.runAllTimers();
    book.flush();
    expect(store.map.size).toBe(0);
    expect(book.get("s1")).toBe("");
  });
});
