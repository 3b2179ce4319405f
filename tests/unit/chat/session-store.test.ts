import { describe, expect, it } from "vitest";
import { createSessionStore, nodeOf } from "@/components/session/session-store";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";

const S = asSessionId("S1");
const R = asNodeId("R");

function node(id: string, content: string, status: LedgerNode["status"]): LedgerNode {
  return {
    id: asNodeId(id),
    sessionId: S,
    predecessorId: id === "R" ? null : R,
    seq: id === "R" ? 0 : 1,
    kind: id === "R" ? "root" : "assistant",
    content,
    status,
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: tokens(0),
    createdAt: "2026-12-01T00:00:00.000Z",
  };
}

function store(streamed: string) {
  return createSessionStore({
    session: {
      id: S,
      title: "t",
      headId: asNodeId("A"),
      rootId: R,
      meta: {},
      createdAt: "2026-12-01T00:00:00.000Z",
      updatedAt: "2026-12-01T00:00:00.000Z",
    },
    nodes: [node("R", "system", "complete"), node("A", streamed, "streaming")],
    model: {
      label: "offline model",
      name: "offline",
      offline: true,
      window: 8192,
      keepRecentTokens: 1000,
      notice: null,
      vision: false,
    },
  });
}

const delta = (text: string, offset: number) =>
  ({ type: "delta", id: asNodeId("A"), text, offset }) as const;
const content = (s: ReturnType<typeof store>) => nodeOf(s.getState(), "A")?.content;

describe("[R89] streamed text lands exactly once, at its offset", () => {
  it("[R89] a tab that refetched mid-stream skips the chunk it already has", () => {
    // The page loaded "Hello" from the ledger; the channel then delivers that same chunk.
    const s = store("Hello");
    expect(s.getState().apply(delta("Hello", 0))).toBe(false);
    expect(content(s)).toBe("Hello");
    s.getState().apply(delta(" world", 5));
    expect(content(s)).toBe("Hello world");
    // A chunk overlapping what the tab has contributes only its new tail.
    s.getState().apply(delta("world!", 6));
    expect(content(s)).toBe("Hello world!");
  });

  it("[R89] a tab that opened mid-stream continues from the text so far", () => {
    const s = store("The first half, ");
    s.getState().apply(delta("and the second.", 16));
    expect(content(s)).toBe("The first half, and the second.");
  });

  it("[R89] a gap (missed text) asks for a refetch instead of splicing text in the wrong place", () => {
    const s = store("Hel");
    expect(s.getState().apply(delta("world", 6))).toBe(true);
    expect(content(s)).toBe("Hel");
  });
});

describe("a failed compaction is told once, where it was asked for", () => {
  const failed = (trigger: "manual" | "auto") =>
    ({
      type: "compaction_failed",
      trigger,
      code: "summary_not_smaller",
      message: "The summary would not shrink the context (236 → 252 tokens); nothing was written.",
    }) as const;

  it("one asked for here (the button, /compact) leaves no second notice on the page", () => {
    const s = store("done");
    s.getState().apply(failed("manual"));
    expect(s.getState().notice).toBeNull();
  });

  it("an automatic one, which nobody asked for, is announced", () => {
    const s = store("done");
    s.getState().apply(failed("auto"));
    expect(s.getState().notice).toBe(`Compaction failed: ${failed("auto").message}`);
  });
});
