import type { SnippetSegment } from "./search-hit";
import type { SearchTerms } from "./search-terms";

/**
 * Snippets are cut and marked here, the same way for both databases, as plain segments: the
 * UI wraps the `hit` ones in <mark> elements, and no HTML ever travels (a message's text is
 * whatever its author typed). Words compare like the indexes compare them: case-insensitive,
 * accents ignored, the last word also as a prefix when the query asks for it.
 */

/** About how many characters of context a snippet shows. */
export const SNIPPET_CHARS = 180;
/** How much of that comes before the first hit. */
const LEAD_CHARS = 50;
/** How far a cut may move to land on a space instead of inside a word. */
const SNAP_CHARS = 24;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function fold(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

function matcher(terms: SearchTerms): (word: string) => boolean {
  const wanted = terms.words.map(fold);
  const last = wanted.length - 1;
  return (word) => {
    const w = fold(word);
    return wanted.some((t, i) => w === t || (terms.prefixLast && i === last && w.startsWith(t)));
  };
}

/** `text` as segments, every matching word a hit; neighbouring pieces are merged. */
export function markHits(text: string, terms: SearchTerms): SnippetSegment[] {
  const isHit = matcher(terms);
  const out: SnippetSegment[] = [];
  const push = (piece: string, hit: boolean) => {
    if (piece === "") return;
    const prev = out.at(-1);
    if (prev && prev.hit === hit) out[out.length - 1] = { text: prev.text + piece, hit };
    else out.push({ text: piece, hit });
  };
  let pos = 0;
  for (const m of text.matchAll(WORD)) {
    if (!isHit(m[0])) continue;
    push(text.slice(pos, m.index), false);
    push(m[0], true);
    pos = m.index + m[0].length;
  }
  push(text.slice(pos), false);
  return out;
}

/** A cut near `i` that falls on a space when one is close, never inside a surrogate pair. */
function snap(text: string, i: number, direction: -1 | 1): number {
  for (let d = 0; d <= SNAP_CHARS; d++) {
    const j = i + d * direction;
    if (j <= 0 || j >= text.length) return Math.max(0, Math.min(text.length, j));
    if (text[j] === " ") return direction < 0 ? j + 1 : j;
  }
  const code = text.charCodeAt(i);
  return code >= 0xdc00 && code <= 0xdfff ? i + direction : i;
}

/**
 * A window of `text` (whitespace collapsed) around its first matching word, about
 * `SNIPPET_CHARS` long, with "…" where it was cut. Without a match in the text (the hit was
 * past what was read) it is the text's start.
 */
export function snippetOf(text: string, terms: SearchTerms): SnippetSegment[] {
  const flat = text.replace(/\s+/g, " ").trim();
  const isHit = matcher(terms);
  let first = 0;
  for (const m of flat.matchAll(WORD)) {
    if (isHit(m[0])) {
      first = m.index;
      break;
    }
  }
  const start = first <= LEAD_CHARS ? 0 : snap(flat, first - LEAD_CHARS, -1);
  const end =
    start + SNIPPET_CHARS >= flat.length ? flat.length : snap(flat, start + SNIPPET_CHARS, 1);
  // "…" is no word, so it never becomes a hit and merges with its neighbour.
  const lead = start > 0 ? "…" : "";
  const tail = end < flat.length ? "…" : "";
  return markHits(lead + flat.slice(start, end) + tail, terms);
}
