import { describe, expect, it } from "vitest";
import { replyFigures } from "@/components/compare/reply-figures";

describe("[R236] what a reply column says about how the reply was made", () => {
  it("[R236] tokens, time to first token, time in all, and the expanded summary's turns", () => {
    expect(
      replyFigures({
        model: "gpt-4o",
        usage: { promptTokens: 1234, completionTokens: 56 },
        timing: { firstTokenMs: 420, totalMs: 2160 },
        replay_of: "01X",
        expanded_turns: 12,
      }),
    ).toEqual([
      "1,234 prompt · 56 reply tokens",
      "first token 0.4 s",
      "2.2 s in all",
      "without the summary of 12 turns",
    ]);
  });

  it("[R236] leaves out what the reply does not record", () => {
    expect(replyFigures({ model: "offline" })).toEqual([]);
    expect(replyFigures({ timing: { totalMs: 12_400 }, expanded_turns: 1 })).toEqual([
      "12 s in all",
      "without the summary of 1 turn",
    ]);
  });
});
