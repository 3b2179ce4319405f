/** The title of a session nobody has named yet. */
export const UNTITLED = "New chat";

/** Longest automatic title, in characters (a user's own title may be longer). */
export const AUTO_TITLE_MAX_CHARS = 60;

/** Quotes and markup models wrap a title in, stripped from both ends. */
const WRAPPERS = /^["'`“”‘’«»*_#\s]+|["'`“”‘’«»*_\s]+$/g;

/**
 * Cuts `text` to at most `max` characters at a word boundary, with an ellipsis when it was
 * cut. A single word longer than the limit is cut inside it.
 */
function capAtWord(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join("");
  const space = head.lastIndexOf(" ");
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.!?-]+$/, "")}…`;
}

/**
 * Text without control and format characters (NUL, bidi overrides, zero-width marks): a
 * title is shown in lists and search, and PostgreSQL refuses NUL. Line breaks stay, as the
 * callers split on them.
 */
function visible(text: string): string {
  return text.replace(/(?![\t\n\r])[\p{Cc}\p{Cf}]/gu, "");
}

/**
 * The automatic title the offline model gives a session: the first non-empty line of its
 * first user message, whitespace collapsed, at most {@link AUTO_TITLE_MAX_CHARS} characters
 * cut at a word boundary with an ellipsis. {@link UNTITLED} when there is no text.
 */
export function titleFromMessage(text: string): string {
  const line = visible(text)
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .find((l) => l !== "");
  return line === undefined ? UNTITLED : capAtWord(line, AUTO_TITLE_MAX_CHARS);
}

/**
 * A model's answer to the title prompt as a title: its first non-empty line without a
 * `Title:` label, wrapping quotes or markup and trailing punctuation, whitespace collapsed,
 * capped like {@link titleFromMessage}. `""` when nothing is left (the caller falls back).
 */
export function cleanModelTitle(raw: string): string {
  const line =
    visible(raw)
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  const bare = line
    .replace(/^\s*(?:\*\*)?title(?:\*\*)?\s*:\s*/i, "")
    .replace(WRAPPERS, "")
    .replace(/[.!,;:]+$/, "")
    .replace(WRAPPERS, "")
    .replace(/\s+/g, " ")
    .trim();
  return bare === "" ? "" : capAtWord(bare, AUTO_TITLE_MAX_CHARS);
}
