import { describe, expect, it } from "vitest";
import { waitReason } from "@/components/chat/wait-reason";

describe("why the composer cannot send yet", () => {
  it("says nothing when nothing holds the turn", () => {
    expect(waitReason(null, false)).toBeNull();
  });

  it("waits for a reply streaming with no request of this tab (another tab's, a replay)", () => {
    expect(waitReason(null, true)).toBe("Wait for the reply to finish");
  });

  it("waits for this tab's own request, named", () => {
    expect(waitReason("turn", true)).toBe("Wait for the reply to finish");
    expect(waitReason("turn", false)).toBe("Wait for the reply to finish");
    expect(waitReason("compact", false)).toBe("Wait for the compaction to finish");
    expect(waitReason("task", false)).toBe("Wait for the sub-agent task to finish");
    expect(waitReason("send", false)).toBe("Wait for the message to the other session to be sent");
  });
});
