import { describe, expect, it } from "vitest";
import { asNodeId, asSessionId, tokens, type NodeId } from "@/lib/engine/ids";
import type { LedgerNode, NodeStatus } from "@/lib/engine/types";
import { FinalNodes } from "@/lib/store/final-nodes";

const A = asSessionId("sa");
const B = asSessionId("sb");

function node(
  id: string,
  pred: string | null,
  opts: { status?: NodeStatus; session?: typeof A; content?: string } = {},
): LedgerNode {
  return {
    id: asNodeId(id),
    sessionId: opts.session ?? A,
    predecessorId: pred === null ? null : asNodeId(pred),
    seq: 0,
    kind: pred === null ? "root" : "user",
    content: opts.content ?? `text of ${id}`,
    status: opts.status ?? "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: tokens(1),
    createdAt: new Date(0).toISOString(),
  };
}

const ids = (nodes: readonly LedgerNode[]) => nodes.map((n) => n.id);

describe("[R136] the final-node cache", () => {
  it("[R136] walks the cached stretch of a spine and names the first node it misses", () => {
    const cache = new FinalNodes();
    cache.remember(A, [node("r", null), node("u1", "r"), node("a1", "u1")], cache.epoch);
    expect(cache.walk(A, asNodeId("a1"))).toEqual({
      above: [node("a1", "u1"), node("u1", "r"), node("r", null)],
      missing: null,
    });
    cache.forget(A, [asNodeId("u1")]);
    const walked = cache.walk(A, asNodeId("a1"));
    expect(ids(walked.above)).toEqual(["a1"]);
    expect(walked.missing).toBe("u1");
    expect(cache.walk(A, asNodeId("nope"))).toEqual({ above: [], missing: "nope" });
  });

  it("[R136] keeps only final nodes, and only under the session they belong to", () => {
    const cache = new FinalNodes();
    cache.remember(
      A,
      [node("r", null), node("s", "r", { status: "streaming" }), node("x", "r", { session: B })],
      cache.epoch,
    );
    expect(cache.get(A, asNodeId("r"))).toBeDefined();
    expect(cache.get(A, asNodeId("s"))).toBeUndefined();
    expect(cache.get(A, asNodeId("x"))).toBeUndefined();
    expect(cache.get(B, asNodeId("x"))).toBeUndefined();
    // A session's nodes are never answered for another session.
    expect(cache.get(B, asNodeId("r"))).toBeUndefined();
  });

  it("[R136] a read that began before a delete does not put the deleted nodes back", () => {
    const cache = new FinalNodes();
    const before = cache.epoch;
    cache.forget(A, [asNodeId("u1")]); // the delete lands while the read is under way
    cache.remember(A, [node("r", null), node("u1", "r")], before);
    expect(cache.get(A, asNodeId("u1"))).toBeUndefined();
    expect(cache.heldChars).toBe(0);
    cache.remember(A, [node("r", null)], cache.epoch);
    expect(cache.get(A, asNodeId("r"))).toBeDefined();
  });

  it("[R136] counts metadata against the budget, and hands out frozen copies", () => {
    const cache = new FinalNodes();
    const covers = Array.from({ length: 100 }, (_, i) => asNodeId(`n${i}`));
    const summary = { ...node("S", "r", { content: "" }), metadata: { covers_ids: covers } };
    cache.remember(A, [summary], cache.epoch);
    expect(cache.heldChars).toBe(JSON.stringify(summary.metadata).length + 256);
    expect(Object.isFrozen(cache.get(A, asNodeId("S")))).toBe(true);
  });

  it("[R136] holds nodes without their reads", () => {
    const cache = new FinalNodes();
    const read = { ...node("a", null), reads: [asNodeId("r")] as NodeId[] };
    cache.remember(A, [read], cache.epoch);
    expect(cache.get(A, asNodeId("a"))?.reads).toEqual([]);
    // Every other field as read.
    expect(cache.get(A, asNodeId("a"))).toEqual({ ...read, reads: [] });
  });

  it("[R136] past its budget, drops the least recently used sessions first", () => {
    // Each node costs its text plus 256: two sessions of one 300-char node fit in 1,200.
    const cache = new FinalNodes(1_200);
    const text = "x".repeat(300);
    cache.remember(A, [node("ra", null, { content: text })], cache.epoch);
    cache.remember(B, [node("rb", null, { session: B, content: text })], cache.epoch);
    cache.walk(A, asNodeId("ra")); // A is now the most recently used
    const C = asSessionId("sc");
    cache.remember(C, [node("rc", null, { session: C, content: text })], cache.epoch);
    expect(cache.get(B, asNodeId("rb"))).toBeUndefined();
    expect(cache.get(A, asNodeId("ra"))).toBeDefined();
    expect(cache.get(C, asNodeId("rc"))).toBeDefined();
    expect(cache.heldChars).toBe(2 * (300 + 256));
    cache.forgetSession(A);
    expect(cache.heldChars).toBe(300 + 256);
  });

  it("[R136] a session alone over the budget is not kept at all", () => {
    const cache = new FinalNodes(500);
    cache.remember(A, [node("r", null, { content: "y".repeat(600) })], cache.epoch);
    expect(cache.get(A, asNodeId("r"))).toBeUndefined();
    expect(cache.heldChars).toBe(0);
  });
});
