import { describe, expect, it } from "vitest";
import { compactReadiness } from "@/components/chat/use-compact-readiness";
import { selectHeadView } from "@/components/session/session-context";
import { createSessionStore } from "@/components/session/session-store";
import { ledger, type Ledger } from "../engine/helpers";

function readiness(l: Ledger, head: string, summary?: string) {
  const store = createSessionStore({
    session: l.session(head, summary),
    nodes: l.nodes,
    model: {
      label: "m",
      name: "m",
      offline: true,
      window: 8192,
      keepRecentTokens: 100_000,
      notice: null,
      vision: false,
    },
  });
  const s = store.getState();
  return compactReadiness(selectHeadView(s), s.nodes, s.session.meta);
}

describe("[R201] the Compact button knows before a click whether there is anything to do", () => {
  it("[R201] one exchange is too little; two earlier exchanges are enough, whatever the window", () => {
    const l = ledger().chain("R", "u1 a1");
    expect(readiness(l, "a1")).toEqual({
      ready: false,
      reason: expect.stringMatching(/Not enough conversation/),
    });
    // The kept window (100,000 tokens) would hold it all; a manual compaction still runs.
    expect(readiness(l.chain("a1", "u2 a2 u3 a3"), "a3")).toEqual({ ready: true, reason: null });
  });

  it("[R201] with everything before the latest exchange summarised, the reason says so", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3");
    l.add("a3", "assistant", "u3", { toolCalls: ["c1"] });
    l.add("t1", "tool", "a3", { toolCallId: "c1" });
    l.chain("t1", "a4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    expect(readiness(l, "a4", "S")).toEqual({
      ready: false,
      reason: expect.stringMatching(/already summarised/),
    });
    // The same ledger from a fork that renders raw has plenty to compact.
    l.chain("a1", "u2b a2b u3b a3b");
    expect(readiness(l, "a3b", "S").ready).toBe(true);
  });
});
