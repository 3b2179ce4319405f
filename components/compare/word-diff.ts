import { diffWordsWithSpace } from "diff";

/** A piece of a text as the compare view shows it: kept, or only in one of the two. */
export interface DiffPart {
  readonly text: string;
  readonly change: "same" | "added" | "removed";
}

/** The two sides of a word diff: each text cut into the parts it shows. */
export interface WordDiff {
  /** The first text: what it shares with the second, and what only it has (`removed`). */
  readonly left: readonly DiffPart[];
  /** The second text: what it shares with the first, and what only it has (`added`). */
  readonly right: readonly DiffPart[];
  /** Both sides in one run, removals before additions: for a column beside a baseline. */
  readonly inline: readonly DiffPart[];
  /** The share of the second text's characters that it shares with the first (0..1). */
  readonly same: number;
}

/**
 * How long one diff may take before the view gives up marking it: two long and very
 * different replies would otherwise hold the main thread (jsdiff is O(N·D)).
 */
export const DIFF_TIMEOUT_MS = 60;

/**
 * A word-level diff of two replies (issue 20's compare view), by jsdiff's
 * `diffWordsWithSpace`: words, punctuation and runs of whitespace are the tokens, so line
 * breaks and spacing survive in the marked text. Null when the texts are too long and
 * different to mark within {@link DIFF_TIMEOUT_MS}.
 */
export function wordDiff(a: string, b: string): WordDiff | null {
  const changes = diffWordsWithSpace(a, b, { timeout: DIFF_TIMEOUT_MS });
  if (changes === undefined) return null;
  const left: DiffPart[] = [];
  const right: DiffPart[] = [];
  const inline: DiffPart[] = [];
  let shared = 0;
  for (const c of changes) {
    if (c.added) {
      right.push({ text: c.value, change: "added" });
      inline.push({ text: c.value, change: "added" });
    } else if (c.removed) {
      left.push({ text: c.value, change: "removed" });
      inline.push({ text: c.value, change: "removed" });
    } else {
      shared += c.value.length;
      const part = { text: c.value, change: "same" } as const;
      left.push(part);
      right.push(part);
      inline.push(part);
    }
  }
  return {
    left,
    right,
    inline,
    same: b.length === 0 ? (a.length === 0 ? 1 : 0) : shared / b.length,
  };
}
