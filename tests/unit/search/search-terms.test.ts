import { describe, expect, it } from "vitest";
import { fts5Match, searchTerms, SEARCH_MAX_TERMS, tsQuery } from "@/lib/search/search-terms";

describe("[R102] user text becomes quoted words, never query syntax", () => {
  it("[R102] words are runs of letters, digits and marks, lower-cased and deduplicated", () => {
    expect(searchTerms("Rust's borrow-checker, RUST!").words).toEqual([
      "rust",
      "s",
      "borrow",
      "checker",
    ]);
    expect(searchTerms("naïve café 東京 42").words).toEqual(["naïve", "café", "東京", "42"]);
  });

  it("[R102] punctuation and operators alone are no words: an empty search", () => {
    for (const q of ["", "   ", "!!!", '"', "*", ":", "&|!", "()", "{}:^", "-- ;", "''\\"]) {
      expect(searchTerms(q).words, q).toEqual([]);
    }
  });

  it("[R102] operators become plain quoted words; quotes, stars and colons vanish", () => {
    const terms = searchTerms('NEAR(a b) OR c* title:"x" NOT y & z | !w');
    expect(terms.words).toEqual(["near", "a", "b", "or", "c", "title", "x", "not", "y", "z", "w"]);
    expect(fts5Match(terms, "content", "u1")).toBe(
      '{owner_key} : "7531" AND {content} : ("near" "a" "b" "or" "c" "title" "x" "not" "y" "z" "w")',
    );
    expect(tsQuery(terms)).toBe(
      "'near' & 'a' & 'b' & 'or' & 'c' & 'title' & 'x' & 'not' & 'y' & 'z' & 'w'",
    );
  });

  it("[R102] the last word is also a prefix once it has two characters", () => {
    const terms = searchTerms("borrow che");
    expect(terms.prefixLast).toBe(true);
    expect(fts5Match(terms, "title", "importing:é")).toBe(
      '{owner_key} : "696D706F7274696E673AC3A9" AND {title} : ("borrow" "che"*)',
    );
    expect(tsQuery(terms)).toBe("'borrow' & 'che':*");
    expect(searchTerms("borrow c").prefixLast).toBe(false);
  });

  it("[R102] at most SEARCH_MAX_TERMS words are searched", () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    expect(searchTerms(many).words).toHaveLength(SEARCH_MAX_TERMS);
  });
});
