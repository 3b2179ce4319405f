import { describe, expect, it } from "vitest";
import { readTotalText } from "@/components/graph/read-list";

describe("what a reply read, counted in words a reader can square with the reply's figures", () => {
  it("says the messages' own tokens, and the model's count of the prompt when it differs", () => {
    expect(readTotalText(5, 523, 560)).toBe(
      "It read 5 messages · 523 tokens of text (the model counted 560 for the whole prompt), in this order:",
    );
  });

  it("says one count when the provider gave none or the same", () => {
    expect(readTotalText(1, 7)).toBe("It read 1 message · 7 tokens of text, in this order:");
    expect(readTotalText(2, 1200, 1200)).toBe(
      "It read 2 messages · 1,200 tokens of text, in this order:",
    );
  });
});
