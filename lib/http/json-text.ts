import { EngineError } from "../engine/errors";

/** Deeper JSON than this is refused: no request of this API nests anywhere near it. */
export const MAX_JSON_DEPTH = 64;

/**
 * Parses a request body's JSON, refusing (400) what no route can store: nesting deeper than
 * {@link MAX_JSON_DEPTH} (checked by a linear scan before parsing, so a hostile body cannot
 * exhaust the stack of whatever walks it later) and a NUL character in any string or key
 * (PostgreSQL cannot store one in text; SQLite would, and the session would then differ
 * between databases).
 */
export function parseJsonText(text: string): unknown {
  if (text.trim() === "") return {};
  checkDepth(text);
  // A raw NUL is invalid JSON anyway; an escaped one is `\u0000` after an even number of
  // backslashes (an odd number would make it the text "\u0000"). One linear scan, so the
  // parse itself runs at full speed.
  if (ESCAPED_NUL.test(text)) {
    throw new EngineError("invalid_request", "Text must not contain NUL (\\u0000) characters.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new EngineError("invalid_request", "The request body is not valid JSON.");
  }
}

const ESCAPED_NUL = /(?<!\\)(?:\\\\)*\\u0000/;

function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new EngineError(
          "invalid_request",
          `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
        );
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
}

/** A zod-free guard for strings that reach the store through server actions. */
export function hasNul(text: string): boolean {
  return text.includes("\0");
}
