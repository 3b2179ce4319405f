import { describe, expect, it } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import { loadInnerSummaries } from "@/lib/engine/summary-turns";
import type { LedgerNode } from "@/lib/engine/types";
import { id, ledger } from "./helpers";

/** S1, S2 plain; N1 nests them; N2 nests N1; C1 and C2 name each other (a cycle). */
function nestedLedger() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3");
  l.summary("S1", ["u1", "a1"]);
  l.summary("S2", ["u2", "a2"], "a1");
  const nest = (name: string, covers: string[]) =>
    l.add(name, "summary", "R", {
      metadata: { covers_ids: covers.map(id), covers_summaries: true },
    });
  nest("N1", ["S1", "S2"]);
  nest("N2", ["N1", "u3"]);
  nest("C1", ["C2"]);
  nest("C2", ["C1"]);
  return l;
}

/** A `read` over the ledger that records the ids of each call. */
function reader(nodes: readonly LedgerNode[]) {
  const calls: NodeId[][] = [];
  const read = (ids: readonly NodeId[]) => {
    calls.push([...ids]);
    return Promise.resolve(nodes.filter((n) => ids.includes(n.id)));
  };
  return { read, calls };
}

const byId = (nodes: readonly LedgerNode[], ...names: string[]) =>
  names.map((n) => nodes.find((x) => x.id === id(n)) as LedgerNode);

describe("[R248] loading nested summaries", () => {
  it("[R248] one read per level of nesting, summaries only, each once", async () => {
    const l = nestedLedger();
    const { read, calls } = reader(l.nodes);
    const inner = await loadInnerSummaries(byId(l.nodes, "N2"), read);
    expect(inner.map((n) => n.id)).toEqual(["N1", "S1", "S2"].map(id));
    expect(calls).toEqual([
      [id("N1"), id("u3")],
      [id("S1"), id("S2")],
    ]);
  });

  it("[R248] plain summaries need no read, and a cycle ends where it closes", async () => {
    const l = nestedLedger();
    const plain = reader(l.nodes);
    expect(await loadInnerSummaries(byId(l.nodes, "S1", "S2"), plain.read)).toEqual([]);
    expect(plain.calls).toEqual([]);
    const cycle = reader(l.nodes);
    const inner = await loadInnerSummaries(byId(l.nodes, "C1"), cycle.read);
    expect(inner.map((n) => n.id)).toEqual([id("C2")]);
    expect(cycle.calls).toEqual([[id("C2")]]);
  });
});
