import { describe, expect, it } from "vitest";
import { asNodeId } from "@/lib/engine/ids";
import { ledgerFileSchema, planImport, type ParsedLedgerFile } from "@/lib/portability/ledger-file";

type FileNode = ParsedLedgerFile["nodes"][number];

function node(
  id: string,
  pred: string | null,
  seq: number,
  extra: Partial<FileNode> = {},
): FileNode {
  return {
    id,
    predecessorId: pred,
    seq,
    kind: pred === null ? "root" : seq % 2 ? "user" : "assistant",
    content: id,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    createdAt: "2026-12-01T00:00:00.000Z",
    ...extra,
  };
}

function file(
  nodes: FileNode[],
  headId: string | null,
  meta: Record<string, unknown> = {},
): ParsedLedgerFile {
  return ledgerFileSchema.parse({
    format: "spindle.ledger",
    version: 1,
    session: { title: "t", headId, meta },
    nodes,
  });
}

let counter = 0;
const fresh = () => asNodeId(`N${String(counter++).padStart(8, "0")}`);

describe("ledger import", () => {
  it("re-ids every node and translates predecessors, covers_ids, reads and the summary pointer", () => {
    const f = file(
      [
        node("r", null, 0),
        node("u", "r", 1),
        node("a", "u", 2, { reads: ["r", "u"] }),
        node("s", "r", 3, { kind: "summary", metadata: { covers_ids: ["u", "a"] } }),
      ],
      "a",
      { _last_summary_id: "s", _last_summary_text: "s" },
    );
    const plan = planImport(f, fresh);
    const byContent = new Map(plan.nodes.map((n) => [n.content, n]));
    expect(byContent.get("u")?.predecessorId).toBe(byContent.get("r")?.id);
    expect(byContent.get("a")?.reads).toEqual([byContent.get("r")?.id, byContent.get("u")?.id]);
    expect(byContent.get("s")?.metadata.covers_ids).toEqual([
      byContent.get("u")?.id,
      byContent.get("a")?.id,
    ]);
    expect(plan.meta._last_summary_id).toBe(byContent.get("s")?.id);
    expect(plan.headId).toBe(byContent.get("a")?.id);
    expect(new Set(plan.nodes.map((n) => n.id)).has(asNodeId("a"))).toBe(false);
  });

  it("rejects cycles, dangling predecessors, two roots and a summary as HEAD", () => {
    expect(() =>
      planImport(file([node("r", null, 0), node("x", "y", 1), node("y", "x", 2)], "x"), fresh),
    ).toThrow(/cycle/);
    expect(() => planImport(file([node("r", null, 0), node("x", "gone", 1)], "x"), fresh)).toThrow(
      /missing predecessor/,
    );
    expect(() => planImport(file([node("r", null, 0), node("r2", null, 1)], "r"), fresh)).toThrow(
      /one ROOT/,
    );
    expect(() =>
      planImport(file([node("r", null, 0), node("s", "r", 1, { kind: "summary" })], "s"), fresh),
    ).toThrow(/HEAD names a summary/);
    expect(() => file([{ ...node("r", null, 0), createdAt: "yesterday" }], "r")).toThrow();
  });

  it("checks a long chain in linear time", () => {
    const nodes = [node("n0", null, 0)];
    for (let i = 1; i < 50_000; i++) nodes.push(node(`n${i}`, `n${i - 1}`, i));
    const started = performance.now();
    const plan = planImport(file(nodes, "n49999"), fresh);
    expect(plan.nodes).toHaveLength(50_000);
    // Quadratic checking would take minutes here; linear takes well under a second.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
