import { EngineError } from "./errors";

/** The default limit on one message, in characters (issue 4; `SPINDLE_MAX_MESSAGE_CHARS`). */
export const DEFAULT_MAX_CONTENT_CHARS = 200_000;

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

/**
 * Checks the content of a user message before anything is written and returns it unchanged
 * (whitespace is the user's: it is never trimmed). Characters are Unicode code points, so
 * an emoji counts once.
 *
 * @throws EngineError `empty_content` when the content is empty or only whitespace;
 *   `invalid_request` when it holds a NUL character (PostgreSQL cannot store one);
 *   `content_too_large` when it is longer than `maxChars`.
 */
export function validateContent(content: string, maxChars = DEFAULT_MAX_CONTENT_CHARS): string {
  if (content.trim() === "") throw new EngineError("empty_content", "The message is empty.");
  if (content.includes("\0")) {
    throw new EngineError("invalid_request", "Text must not contain NUL (\\u0000) characters.");
  }
  // UTF-16 length bounds the code-point count from above, so short content needs no count.
  const length = content.length <= maxChars ? content.length : codePoints(content);
  if (length > maxChars) {
    throw new EngineError(
      "content_too_large",
      `The message has ${length} characters; the limit is ${maxChars}.`,
      { length, limit: maxChars },
    );
  }
  return content;
}
