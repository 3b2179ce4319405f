import { describe, expect, it } from "vitest";
import { readsASummary } from "@/components/chat/reads-summary";
import { leanNode, skeletonNode } from "@/lib/engine/wire-node";
import { TestLedger } from "../graph/ledger";

/** u1 a1 summarised by S1; a2 read the summary, a3 (on another branch) only turns. */
function ledger() {
  const l = new TestLedger()
    .chain("R", "u1 a1 u2")
    .add("S1", "u2", { reads: ["R", "u1", "a1"] })
    .add("a2", "u2", { reads: ["R", "S1", "u2"] })
    .add("a3", "u2", { reads: ["R", "u1", "a1", "u2"] });
  const byId = new Map(l.nodes.map((n) => [n.id as string, n]));
  const node = (id: string) => {
    const n = byId.get(id);
    if (n === undefined) throw new Error(`no ${id}`);
    return n;
  };
  return { byId, node };
}

describe("whether a reply read a summary, for its replay without summaries", () => {
  it("is true of a reply whose reads name a summary, false of one that read turns only", () => {
    const { byId, node } = ledger();
    expect(readsASummary(node("a2"), byId)).toBe(true);
    expect(readsASummary(node("a3"), byId)).toBe(false);
    expect(readsASummary(node("a1"), byId)).toBe(false);
  });

  it("is unknown (null) until the reply's reads are held", () => {
    const { byId, node } = ledger();
    expect(readsASummary(leanNode(node("a2")), byId)).toBeNull();
    expect(readsASummary(skeletonNode(node("a2")), byId)).toBeNull();
    expect(readsASummary(undefined, byId)).toBeNull();
  });

  it("a read node not held is not taken for a summary", () => {
    const { byId, node } = ledger();
    const rest = new Map(byId);
    rest.delete("S1");
    expect(readsASummary(node("a2"), rest)).toBe(false);
  });
});
