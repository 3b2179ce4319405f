/**
 * A `Content-Disposition: attachment` value naming the download after a session's title.
 * Titles are user text: the plain `filename` keeps only safe ASCII (a quote, a slash or a
 * control character could break out of the header or name a path), and `filename*` carries
 * the readable title percent-encoded as UTF-8 (RFC 6266) for browsers that take it.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function attachment(title: string, ext: string): string {
  return disposition(title, ext);
}

/** {@link attachment}'s value; `ext` null for a name that has none (nothing is appended). */
function disposition(title: string, ext: string | null): string {
  const cleaned = title
    // A lone surrogate cannot be percent-encoded (JSON lets a title carry one).
    .replace(LONE_SURROGATE, "")
    .replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  // Cut by code point, never inside a surrogate pair.
  const readable = Array.from(cleaned).slice(0, 80).join("");
  const ascii =
    readable
      // Accents come off (é → e) before anything else non-ASCII becomes "_".
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .replace(/[^A-Za-z0-9 ._-]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/^[ ._]+|[ ._]+$/g, "") || "session";
  const suffix = ext === null ? "" : `.${ext}`;
  const encoded = encodeURIComponent(`${readable || "session"}${suffix}`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}${suffix}"; filename*=UTF-8''${encoded}`;
}

/**
 * The `Content-Disposition` of a served attachment (R269): `inline` only when `inline` is
 * true (the safe image types), `attachment` otherwise, with the stored (already sanitised)
 * file name made safe for the header the same way a session title is. A name whose last
 * part is no ASCII extension is kept whole, with nothing appended.
 */
export function fileDisposition(name: string, inline: boolean): string {
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1).replace(/[^A-Za-z0-9]+/g, "") : "";
  const value = ext ? disposition(name.slice(0, dot), ext) : disposition(name, null);
  return inline ? value.replace(/^attachment;/, "inline;") : value;
}
