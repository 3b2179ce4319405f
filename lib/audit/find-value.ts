/**
 * Whether a text still carries a value (a name, a number, a file, a phrase): the lookup of
 * the offline fact-retention check and of the compaction eval. Deliberately literal — no
 * synonyms, no model — and tolerant only of spelling that carries the same value: case,
 * markdown emphasis and code marks, runs of whitespace, `4,321` for `4321`, `180 ms` for
 * `180ms`. A match must stand on its own: `180 ms` is not found in `1180 ms`.
 */
export function normaliseForLookup(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[*`]/g, "")
    .replace(/(\d),(?=\d{3}(?!\d))/g, "$1")
    .replace(/(\d)\s+(?=(?:%|ms|s|m|h|k|kb|mb|gb|tb|mm|cm|km|kg)(?![\p{L}\p{N}]))/gu, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

const WORD = /[\p{L}\p{N}_]/u;

/** Where `needle` occurs in `haystack` (both normalised) with no word character glued on. */
function standsAlone(haystack: string, needle: string): boolean {
  if (needle === "") return false;
  const gluedBefore = WORD.test(needle[0] ?? "");
  const gluedAfter = WORD.test(needle.at(-1) ?? "");
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    const okBefore = !gluedBefore || before === undefined || !WORD.test(before);
    // A trailing full stop or comma ends a sentence, not the value.
    const okAfter = !gluedAfter || after === undefined || !WORD.test(after);
    if (okBefore && okAfter) return true;
  }
  return false;
}

/** Whether `text` contains `value` (see the module comment for what counts). */
export function containsValue(text: string, value: string): boolean {
  return standsAlone(normaliseForLookup(text), normaliseForLookup(value));
}

/** Whether `text` contains every one of `keys`. */
export function containsAll(text: string, keys: readonly string[]): boolean {
  return keys.length > 0 && keys.every((key) => containsValue(text, key));
}
