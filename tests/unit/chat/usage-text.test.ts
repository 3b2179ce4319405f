import { describe, expect, it } from "vitest";
import { usageText } from "@/components/chat/usage-text";

describe("[R254] a reply's tokens as the transcript shows them", () => {
  it("[R254] shows the prompt tokens with the share the provider cached, and the reply's", () => {
    expect(
      usageText({ promptTokens: 12_480, completionTokens: 312, cachedTokens: 11_904 }),
    ).toEqual({
      text: "12,480 in (11,904 cached) · 312 out",
      title:
        "Tokens: 12,480 sent in the prompt, 11,904 of them served from the provider's prompt cache; 312 in the reply.",
    });
  });

  it("[R254] says nothing of a cache the provider did not report, and nothing without usage", () => {
    expect(usageText({ promptTokens: 40, completionTokens: 7 })?.text).toBe("40 in · 7 out");
    expect(usageText({ promptTokens: 40, completionTokens: 7, cachedTokens: 0 })?.text).toBe(
      "40 in (0 cached) · 7 out",
    );
    expect(usageText(undefined)).toBeNull();
  });
});
