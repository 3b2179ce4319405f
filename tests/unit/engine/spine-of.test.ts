import { describe, expect, it } from "vitest";
import { createLedgerIndex } from "@/lib/engine/ledger-index";
import { spineOf } from "@/lib/engine/spine-of";
import { asSessionId } from "@/lib/engine/ids";
import type { LedgerNode, NodeLookup } from "@/lib/engine/types";
import { codeOf, id, ledger } from "./helpers";

describe("spine walk", () => {
  it("[R1] returns ROOT..head, each node's predecessor the one before it", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2").chain("a1", "u2b a2b");
    const spine = spineOf(id("a2b"), l.index().get);
    expect(spine.map((n) => n.id)).toEqual(["R", "u1", "a1", "u2b", "a2b"]);
    spine.forEach((node, i) => {
      if (i > 0) expect(node.predecessorId).toBe(spine[i - 1]?.id);
    });
  });

  it("[R2] looks up one node per spine element, whatever the size of the ledger", () => {
    const small = ledger().chain("R", "u1 a1 u2 a2");
    const big = ledger().chain("R", "u1 a1 u2 a2");
    for (let b = 0; b < 500; b += 1) big.chain("a1", `u-${b} a-${b} u-${b}-x a-${b}-x`);
    const counted = (lookup: NodeLookup) => {
      let calls = 0;
      const spine = spineOf(id("a2"), (nodeId) => {
        calls += 1;
        return lookup(nodeId);
      });
      return { calls, length: spine.length };
    };
    const a = counted(small.index().get);
    const b = counted(big.index().get);
    expect(big.nodes.length).toBeGreaterThan(100 * small.nodes.length);
    expect(a).toEqual({ calls: 5, length: 5 });
    expect(b).toEqual(a);
  });

  it("[R3] a missing head is node_not_found", () => {
    expect(codeOf(() => spineOf(id("nope"), ledger().index().get))).toBe("node_not_found");
  });

  it("[R3] a missing predecessor, a cycle, another session or a non-root end is invalid_ledger", () => {
    const l = ledger().chain("R", "u1 a1");
    const base = l.get("a1");
    const map = new Map<string, LedgerNode>(l.nodes.map((n) => [n.id, n]));
    const lookupWith = (...extra: LedgerNode[]): NodeLookup => {
      const m = new Map(map);
      for (const n of extra) m.set(n.id, n);
      return (nodeId) => m.get(nodeId);
    };
    const orphan = { ...base, id: id("a9"), predecessorId: id("ghost") };
    expect(codeOf(() => spineOf(orphan.id, lookupWith(orphan)))).toBe("invalid_ledger");

    const x = { ...base, id: id("x"), predecessorId: id("y") };
    const y = { ...base, id: id("y"), predecessorId: id("x") };
    expect(codeOf(() => spineOf(x.id, lookupWith(x, y)))).toBe("invalid_ledger");

    const foreign = { ...base, id: id("f"), predecessorId: id("a1"), sessionId: asSessionId("s2") };
    const child = { ...base, id: id("c"), predecessorId: id("f") };
    expect(codeOf(() => spineOf(child.id, lookupWith(foreign, child)))).toBe("invalid_ledger");

    const headless = { ...base, id: id("h"), predecessorId: null };
    expect(codeOf(() => spineOf(headless.id, lookupWith(headless)))).toBe("invalid_ledger");
  });
});

describe("ledger index", () => {
  it("[R4] orders children by seq, indexes callers and finds ROOT, whatever the input order", () => {
    const l = ledger().chain("R", "u1 a1").chain("u1", "a1b").chain("u1", "a1c");
    l.add("t1", "tool", "a1", { callerId: "a1" });
    l.add("u9", "user", "a1", { callerId: "a1" });
    const shuffled = [...l.nodes].reverse();
    const index = createLedgerIndex(shuffled);
    expect(index.root?.id).toBe("R");
    expect(index.childrenOf(id("u1")).map((n) => n.id)).toEqual(["a1", "a1b", "a1c"]);
    expect(index.calledBy(id("a1")).map((n) => n.id)).toEqual(["t1", "u9"]);
    expect(index.nodes.map((n) => n.seq)).toEqual(l.nodes.map((n) => n.seq));
    expect(index.childrenOf(id("t1"))).toEqual([]);
    expect(index.get(id("a1c"))?.kind).toBe("assistant");
  });

  it("[R4] rejects duplicate ids, nodes of two sessions and two ROOTs", () => {
    const l = ledger().chain("R", "u1");
    const u1 = l.get("u1");
    expect(codeOf(() => createLedgerIndex([...l.nodes, { ...u1, seq: 9 }]))).toBe("invalid_ledger");
    expect(
      codeOf(() =>
        createLedgerIndex([...l.nodes, { ...u1, id: id("u2"), sessionId: asSessionId("s2") }]),
      ),
    ).toBe("invalid_ledger");
    expect(
      codeOf(() => createLedgerIndex([...l.nodes, { ...u1, id: id("R2"), predecessorId: null }])),
    ).toBe("invalid_ledger");
    expect(codeOf(() => createLedgerIndex(l.nodes))).toBeUndefined();
  });
});
