import { describe, expect, it } from "vitest";
import { decodeTurnStreamEvent } from "@/lib/engine/turn-stream";
import { WireDecodeError } from "@/lib/engine/wire-decode";
import { decodeSessionEvent } from "@/lib/events/decode-session-event";
import { leanNode } from "@/lib/engine/wire-node";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";

const node: LedgerNode = {
  id: asNodeId("n2"),
  sessionId: asSessionId("S1"),
  predecessorId: asNodeId("n1"),
  seq: 2,
  kind: "assistant",
  content: "Hello",
  status: "streaming",
  callerId: null,
  metadata: { model: "m", tool_calls: [{ id: "c1", name: "task", arguments: "{}" }] },
  reads: [],
  tokenCount: tokens(0),
  createdAt: "2026-12-02T00:00:00.000Z",
};
const wire = leanNode(node);
const json = (x: unknown) => JSON.stringify(x);

/** The decoder's error for `event`/`data`, or null when it decodes. */
function refusal(decode: () => unknown): string | null {
  try {
    decode();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(WireDecodeError);
    return (e as Error).message;
  }
}

describe("the turn stream's events, decoded by the definitions the server encodes with", () => {
  it("[R288] each event the server writes decodes to its payload", () => {
    expect(decodeTurnStreamEvent("node", json(wire))).toEqual({ event: "node", data: wire });
    expect(decodeTurnStreamEvent("delta", json({ id: "n2", text: "lo", offset: 3 }))).toEqual({
      event: "delta",
      data: { id: "n2", text: "lo", offset: 3 },
    });
    expect(decodeTurnStreamEvent("done", json({ node: wire }))).toEqual({
      event: "done",
      data: { node: wire },
    });
    expect(
      decodeTurnStreamEvent("error", json({ code: "provider_error", message: "down" })),
    ).toEqual({ event: "error", data: { code: "provider_error", message: "down" } });
    expect(
      decodeTurnStreamEvent("error", json({ code: "x", message: "down", node: wire })).data,
    ).toEqual({ code: "x", message: "down", node: wire });
  });

  it("[R288] a malformed event is refused, naming the field and what came", () => {
    expect(refusal(() => decodeTurnStreamEvent("delta", json({ id: "n2", text: "lo" })))).toBe(
      "Malformed server event: delta.offset should be a whole number ≥ 0, got nothing.",
    );
    expect(
      refusal(() => decodeTurnStreamEvent("delta", json({ id: "n2", text: 4, offset: 0 }))),
    ).toBe("Malformed server event: delta.text should be a string, got number 4.");
    expect(refusal(() => decodeTurnStreamEvent("node", json({ ...wire, status: "done" })))).toBe(
      'Malformed server event: node.status should be one of complete, streaming, interrupted, error, got "done".',
    );
    expect(
      refusal(() =>
        decodeTurnStreamEvent(
          "done",
          json({ node: { ...wire, metadata: { tool_calls: [{ id: "c1", name: 3 }] } } }),
        ),
      ),
    ).toBe(
      "Malformed server event: done.node.metadata.tool_calls.0.name should be a string, got number 3.",
    );
    expect(refusal(() => decodeTurnStreamEvent("node", "{not json"))).toBe(
      'Malformed server event: node should be JSON, got "{not json".',
    );
    expect(refusal(() => decodeTurnStreamEvent("tokens", json({})))).toBe(
      'Malformed server event: event should be one of node, delta, done, error, got "tokens".',
    );
  });
});

describe("the session channel's events", () => {
  it("[R288] each channel event decodes to itself; a malformed one is refused by name", () => {
    const events = [
      { type: "node_appended", node: wire },
      { type: "turn_finished", node: { ...wire, status: "complete" } },
      { type: "delta", id: "n2", text: "x", offset: 5 },
      { type: "head_moved", headId: "n2", previousHeadId: null, move: "checkout" },
      { type: "compaction_started", trigger: "auto", headId: "n2" },
      {
        type: "compaction_finished",
        trigger: "manual",
        summary_id: "s1",
        counts: { covered: 4, newlyCovered: 4, kept: 2 },
        tokensBefore: 900,
        tokensAfter: 300,
      },
      { type: "compaction_failed", trigger: "auto", code: "summary_not_smaller", message: "no" },
      { type: "notice", code: "local_command", message: "hi", nodeId: null },
      { type: "node_changed", id: "n2" },
      { type: "nodes_removed", ids: ["n3", "n4"] },
      { type: "session_changed" },
    ];
    for (const event of events) expect(decodeSessionEvent(json(event))).toEqual(event);

    expect(refusal(() => decodeSessionEvent(json({ type: "nodes_removed", ids: ["n3", 4] })))).toBe(
      "Malformed server event: nodes_removed.ids.1 should be an id, got number 4.",
    );
    expect(
      refusal(() => decodeSessionEvent(json({ type: "head_moved", headId: "n2", move: "jump" }))),
    ).toBe(
      "Malformed server event: head_moved.previousHeadId should be an id or null, got nothing.",
    );
    expect(refusal(() => decodeSessionEvent(json({ type: "access_revoked" })))).toMatch(
      /^Malformed server event: event.type should be one of node_appended, /,
    );
  });
});
