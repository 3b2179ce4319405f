import { describe, expect, it } from "vitest";
import { searchTerms } from "@/lib/search/search-terms";
import { markHits, SNIPPET_CHARS, snippetOf } from "@/lib/search/snippet";

const hits = (segments: readonly { text: string; hit: boolean }[]) =>
  segments.filter((s) => s.hit).map((s) => s.text);

describe("[R103] snippets are plain segments with the matches marked", () => {
  it("[R103] every matching word is a hit, case and accents ignored, the last as a prefix", () => {
    const segments = markHits(
      "Cafe CAFÉ and the cafeteria, not a café-bar",
      searchTerms("café caf"),
    );
    expect(hits(segments)).toEqual(["Cafe", "CAFÉ", "cafeteria", "café"]);
    expect(segments.map((s) => s.text).join("")).toBe(
      "Cafe CAFÉ and the cafeteria, not a café-bar",
    );
  });

  it("[R103] neighbouring pieces merge, and markup stays text", () => {
    expect(markHits("<b>zebra</b> zebra", searchTerms("zebra"))).toEqual([
      { text: "<b>", hit: false },
      { text: "zebra", hit: true },
      { text: "</b> ", hit: false },
      { text: "zebra", hit: true },
    ]);
  });

  it("[R103] a long text is cut around its first hit, with an ellipsis where it was cut", () => {
    const text = `${"lorem ipsum ".repeat(100)}the quokka smiled\n\nat ${"dolor sit ".repeat(100)}`;
    const segments = snippetOf(text, searchTerms("quokka"));
    const joined = segments.map((s) => s.text).join("");
    expect(hits(segments)).toEqual(["quokka"]);
    expect(joined.startsWith("…")).toBe(true);
    expect(joined.endsWith("…")).toBe(true);
    expect(joined).toContain("quokka smiled at dolor");
    expect(joined.length).toBeLessThan(SNIPPET_CHARS + 60);
  });

  it("[R103] a short text is whole; a text without a visible hit shows its start", () => {
    expect(snippetOf("just a quokka", searchTerms("quokka")).map((s) => s.text)).toEqual([
      "just a ",
      "quokka",
    ]);
    const start = snippetOf("x ".repeat(300), searchTerms("quokka"));
    expect(hits(start)).toEqual([]);
    expect(start[0]?.text.startsWith("x x")).toBe(true);
  });

  it("[R103] a cut never splits a surrogate pair", () => {
    const text = `${"😀".repeat(200)}quokka${"😀".repeat(200)}`;
    const joined = snippetOf(text, searchTerms("quokka"))
      .map((s) => s.text)
      .join("");
    expect(joined).toContain("quokka");
    expect(joined).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });
});
