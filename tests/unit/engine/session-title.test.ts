import { describe, expect, it } from "vitest";
import {
  AUTO_TITLE_MAX_CHARS,
  cleanModelTitle,
  titleFromMessage,
  UNTITLED,
} from "@/lib/engine/session-title";

describe("[R105] automatic titles", () => {
  it("[R105] control and format characters never reach a title", () => {
    expect(cleanModelTitle("Trip\u0000 to \u202eLisbon\u200b")).toBe("Trip to Lisbon");
    expect(titleFromMessage("Hello\u0007\tworld\u2066")).toBe("Hello world");
  });

  it("[R105] the offline title is the first line, cut at a word boundary with an ellipsis", () => {
    expect(titleFromMessage("  \n  Plan a trip to Lisbon \n and more")).toBe(
      "Plan a trip to Lisbon",
    );
    expect(
      titleFromMessage(
        "Plan a three-day trip to Lisbon with a focus on food, museums and the old tram lines",
      ),
    ).toBe("Plan a three-day trip to Lisbon with a focus on food…");
    expect(titleFromMessage("tabs\tand   spaces")).toBe("tabs and spaces");
    expect(titleFromMessage(" \n\t ")).toBe(UNTITLED);
  });

  it("[R105] one word longer than the cap is cut inside it; no title exceeds the cap", () => {
    const long = "x".repeat(200);
    expect(titleFromMessage(long)).toBe(`${"x".repeat(AUTO_TITLE_MAX_CHARS - 1)}…`);
    for (const text of [long, "word ".repeat(40), "ab ".repeat(30) + "c".repeat(50)]) {
      expect([...titleFromMessage(text)].length).toBeLessThanOrEqual(AUTO_TITLE_MAX_CHARS);
      expect([...cleanModelTitle(text)].length).toBeLessThanOrEqual(AUTO_TITLE_MAX_CHARS);
    }
    // Astral characters count once.
    expect([...titleFromMessage("🙂".repeat(80))].length).toBe(AUTO_TITLE_MAX_CHARS);
  });

  it("[R105] a model's title loses its label, quotes, markup and final punctuation", () => {
    expect(cleanModelTitle('"Quantum Physics Basics."')).toBe("Quantum Physics Basics");
    expect(cleanModelTitle("Title: **Lisbon Food Trip**")).toBe("Lisbon Food Trip");
    expect(cleanModelTitle("“Débogage d’un serveur”\n\nHere is why…")).toBe(
      "Débogage d’un serveur",
    );
    expect(cleanModelTitle("# Why Is The Sky Blue?")).toBe("Why Is The Sky Blue?");
    expect(cleanModelTitle("  \n '' \n")).toBe("");
    expect(cleanModelTitle("")).toBe("");
  });
});
