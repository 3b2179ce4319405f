import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJsonText } from "@/lib/http/json-text";

describe("[R87] the JSON reader", () => {
  it("[R87] refuses a NUL character in any string or key, escaped or raw", () => {
    for (const text of [
      JSON.stringify({ title: "a\u0000b" }),
      JSON.stringify({ ["k\u0000"]: 1 }),
      '{"t":"\\\\\\u0000"}', // a backslash, then NUL
      '{"t":"a\u0000"}', // a raw NUL (invalid JSON)
    ]) {
      expect(() => parseJsonText(text), text).toThrow(
        expect.objectContaining({ code: "invalid_request" }),
      );
    }
  });

  it("[R87] accepts the text \\u0000 (an escaped backslash before u0000)", () => {
    expect(parseJsonText('{"t":"\\\\u0000"}')).toEqual({ t: "\\u0000" });
    expect(parseJsonText('{"t":"\\\\\\\\u0000"}')).toEqual({ t: "\\\\u0000" });
  });

  it("[R87] refuses nesting past the limit, counting brackets outside strings only", () => {
    const deep = `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseJsonText(deep)).toThrow(/nests deeper/);
    const ok = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(() => parseJsonText(ok)).not.toThrow();
    expect(parseJsonText(JSON.stringify({ t: "[".repeat(500) }))).toEqual({ t: "[".repeat(500) });
  });
});
