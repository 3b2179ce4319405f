import { describe, expect, it } from "vitest";
import { anchorOf, revealTarget } from "@/lib/engine/reveal-target";
import { coversIdsOf } from "@/lib/engine/covers-ids-of";
import { createLedgerIndex, type LedgerIndex } from "@/lib/engine/ledger-index";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import { id, ledger } from "./helpers";

/** R → u1 a1 u2 a2 (HEAD) with a dead branch u2b a2b u3b a3b under a1, and a summary. */
function conversation() {
  const l = ledger().chain("R", "u1 a1 u2 a2").chain("a1", "u2b a2b u3b a3b");
  l.summary("S", ["u1", "a1"]);
  l.summary("Sd", ["u1", "a1", "u2b", "a2b"]);
  l.add("n1", "notice", "a2b");
  return l.index();
}

describe("[R104] opening a session at a node", () => {
  it("[R104] a node on HEAD's spine is shown where it is: HEAD stays", () => {
    expect(revealTarget(conversation(), id("a2"), id("u1"))).toEqual({
      focusId: id("u1"),
      checkoutId: null,
    });
    expect(revealTarget(conversation(), id("a2"), id("a2"))?.checkoutId).toBeNull();
  });

  it("[R104] a node of a dead branch checks out that branch's latest leaf, not the node", () => {
    expect(revealTarget(conversation(), id("a2"), id("u2b"))).toEqual({
      focusId: id("u2b"),
      checkoutId: id("a3b"),
    });
  });

  it("[R104] the latest leaf is the most recently written one below the node", () => {
    const index = (() => {
      const l = ledger().chain("R", "u1 a1 u2 a2").chain("a1", "u2b a2b").chain("u2b", "a2c");
      return l.index();
    })();
    expect(revealTarget(index, id("a2"), id("u2b"))?.checkoutId).toBe(id("a2c"));
  });

  it("[R104] a summary opens at the last node it covers (summaries cannot be checked out)", () => {
    expect(revealTarget(conversation(), id("a2"), id("S"))).toEqual({
      focusId: id("a1"),
      checkoutId: null,
    });
    expect(revealTarget(conversation(), id("a2"), id("Sd"))).toEqual({
      focusId: id("a2b"),
      checkoutId: id("a3b"),
    });
  });

  it("[R104] a notice opens at the node it hangs off", () => {
    expect(revealTarget(conversation(), id("a2"), id("n1"))?.focusId).toBe(id("a2b"));
  });

  it("[R104] an unknown node, or a summary whose covered nodes are gone, reveals nothing", () => {
    expect(revealTarget(conversation(), id("a2"), id("nope"))).toBeNull();
    const l = ledger().chain("R", "u1 a1");
    l.summary("S", ["gone1", "gone2"]);
    expect(revealTarget(l.index(), id("a1"), id("S"))).toBeNull();
  });
});

describe("[R119] opening a session at a node reads the branch, not the ledger", () => {
  /** What Workspace.reveal loads: the node, what it names, HEAD's spine, the anchor's subtree. */
  function slice(index: LedgerIndex, head: NodeId, nodeId: NodeId): LedgerIndex {
    const picked = new Map<NodeId, LedgerNode>();
    const add = (n: LedgerNode | undefined) => n && !picked.has(n.id) && picked.set(n.id, n);
    const node = index.get(nodeId);
    if (node === undefined) return createLedgerIndex([]);
    add(node);
    if (node.kind === "summary") coversIdsOf(node).forEach((c) => add(index.get(c)));
    if (node.kind === "notice" && node.predecessorId) add(index.get(node.predecessorId));
    const anchor = anchorOf(createLedgerIndex([...picked.values()]), node);
    for (let n = index.get(head); n; n = n.predecessorId ? index.get(n.predecessorId) : undefined) {
      add(n);
      index.childrenOf(n.id).forEach(add);
    }
    const stack = anchor ? [anchor] : [];
    while (stack.length > 0) {
      const n = stack.pop() as LedgerNode;
      add(n);
      stack.push(...index.childrenOf(n.id));
    }
    return createLedgerIndex([...picked.values()]);
  }

  it("[R119] revealTarget over that slice decides as over the whole ledger", () => {
    const whole = conversation();
    let compared = 0;
    for (const head of whole.nodes.filter((n) => n.kind !== "summary" && n.kind !== "notice")) {
      for (const node of [...whole.nodes, { id: id("zz") }]) {
        expect(revealTarget(slice(whole, head.id, node.id), head.id, node.id)).toEqual(
          revealTarget(whole, head.id, node.id),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});
