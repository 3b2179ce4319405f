/**
 * User text → the words a search looks for, and the two databases' query strings built
 * from them. Nothing the user types is ever passed through as query syntax: the text is cut
 * into words (runs of letters, digits and combining marks — where both indexes split), and
 * each word is quoted. `NEAR`, `OR`, `*`, `:`, `&|!`, quotes and brackets are separators
 * or plain words. Every word must occur; the last one also matches as a prefix (search as
 * you type) when it has at least two characters.
 */

/** Longest accepted query, in characters: longer ones are refused (400), never cut. */
export const SEARCH_QUERY_MAX_CHARS = 500;
/** Words beyond this many are ignored. */
export const SEARCH_MAX_TERMS = 16;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export interface SearchTerms {
  /** Lower-cased words, in the order typed, without duplicates. */
  readonly words: readonly string[];
  /** Whether the last word also matches longer words that start with it. */
  readonly prefixLast: boolean;
}

/** The words of a query; none when it holds no letter or digit (a clear empty result). */
export function searchTerms(query: string): SearchTerms {
  const words = [...new Set((query.match(WORD) ?? []).map((w) => w.toLowerCase()))].slice(
    0,
    SEARCH_MAX_TERMS,
  );
  const last = words.at(-1);
  return { words, prefixLast: last !== undefined && [...last].length >= 2 };
}

/** The FTS5 MATCH expression: the owner's key, and every word a quoted string within `column`. */
export function fts5Match(
  terms: SearchTerms,
  column: "content" | "title",
  ownerId: string,
): string {
  const quoted = terms.words.map((w, i) => {
    const star = terms.prefixLast && i === terms.words.length - 1 ? "*" : "";
    return `"${w.replaceAll('"', '""')}"${star}`;
  });
  // The owner's key as the search migration writes it (SQLite's hex() of the UTF-8 text):
  // FTS5 narrows to the caller's rows before ranking.
  const owner = Array.from(new TextEncoder().encode(ownerId), (b) =>
    b.toString(16).padStart(2, "0"),
  )
    .join("")
    .toUpperCase();
  return `{owner_key} : "${owner}" AND {${column}} : (${quoted.join(" ")})`;
}

/** The `to_tsquery` text: every word a quoted lexeme, joined by `&`. */
export function tsQuery(terms: SearchTerms): string {
  return terms.words
    .map((w, i) => {
      const prefix = terms.prefixLast && i === terms.words.length - 1 ? ":*" : "";
      return `'${w.replaceAll("\\", "\\\\").replaceAll("'", "''")}'${prefix}`;
    })
    .join(" & ");
}
