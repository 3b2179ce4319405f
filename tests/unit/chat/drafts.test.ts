import { describe, expect, it } from "vitest";
import {
  DRAFT_MAX_CHARS,
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
