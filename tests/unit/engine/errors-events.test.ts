import { describe, expect, it } from "vitest";
import { ENGINE_EVENT_TYPES, type EngineEvent, type EngineEventType } from "@/lib/engine/events";
import { assertNever } from "@/lib/engine/assert-never";
import type { EngineError } from "@/lib/engine/errors";

describe("events", () => {
  it("[R61] the event union is exactly the session channel's SSE event names", () => {
    expect([...ENGINE_EVENT_TYPES]).toEqual([
      "node_appended",
      "delta",
      "turn_finished",
      "head_moved",
      "compaction_started",
      "compaction_finished",
      "compaction_failed",
      "notice",
    ]);
    // Exhaustive over the union: adding an event without handling it fails to compile.
    const label = (event: EngineEvent): EngineEventType => {
      switch (event.type) {
        case "node_appended":
        case "delta":
        case "turn_finished":
        case "head_moved":
        case "compaction_started":
        case "compaction_finished":
        case "compaction_failed":
        case "notice":
          return event.type;
        default:
          return assertNever(event, "event");
      }
    };
    const finished: EngineEvent = {
      type: "compaction_finished",
      sessionId: "s1" as never,
      trigger: "manual",
      summary_id: "S" as never,
      counts: { covered: 6, newlyCovered: 2, kept: 2 },
      tokensBefore: 100 as never,
      tokensAfter: 60 as never,
    };
    expect(label(finished)).toBe("compaction_finished");
    expect(codeOfNever()).toBe("internal");
  });
});

function codeOfNever(): string | undefined {
  try {
    assertNever("bogus" as never);
  } catch (e) {
    return (e as EngineError).code;
  }
  return undefined;
}
