import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import { packLedger, unpackLedger } from "@/lib/engine/packed-ledger";
import type { NodeKind, NodeStatus } from "@/lib/engine/types";
import type { WireNode, WirePartial } from "@/lib/engine/wire-node";
import { bigLedger } from "../../support/big-ledger";

const S1 = asSessionId("S1");

const KINDS: readonly NodeKind[] = ["root", "user", "assistant", "tool", "summary", "notice"];
const STATUSES: readonly NodeStatus[] = ["complete", "streaming", "interrupted", "error"];
const PARTIALS: readonly (WirePartial | undefined)[] = [undefined, "reads", "skeleton"];

/** One node's fields, drawn freely: ids may repeat or hold commas, timestamps may be odd. */
const nodeShape = fc.record({
  id: fc.oneof(fc.stringMatching(/^[0-9A-Z]{1,4}$/), fc.constant("a,b"), fc.constant("")),
  pred: fc.oneof(fc.constant(-1), fc.nat(), fc.constant(-2)),
  seq: fc.oneof(
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.constantFrom(2 ** 53 + 2, 2 ** 60, -0, Number.NaN),
  ),
  kind: fc.oneof(fc.constantFrom(...KINDS), fc.constant("mystery")),
  status: fc.constantFrom(...STATUSES),
  partial: fc.constantFrom(...PARTIALS),
  // Any UTF-16 code units: lone surrogates too (a label cut inside an emoji).
  content: fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constant("\ud83d")),
  session: fc.constantFrom("S1", "S1", "S1", "S2"),
  caller: fc.option(fc.constantFrom("c1", "c2")),
  metadata: fc.oneof(
    fc.constant({}),
    fc.record({ model: fc.string() }),
    fc.record({ covers_ids: fc.array(fc.constantFrom("x", "y").map(asNodeId)) }),
  ),
  reads: fc.array(fc.constantFrom("r1", "r2", "r3"), { maxLength: 3 }),
  tokenCount: fc.nat(),
  time: fc.oneof(
    fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
    fc.constantFrom(-8.64e15, 8.64e15).map((ms) => new Date(ms).toISOString()),
    fc.constant("2026-12-01T00:00:00Z"),
    fc.constant(""),
    fc.constant("not a date"),
  ),
});

type NodeShape = typeof nodeShape extends fc.Arbitrary<infer T> ? T : never;

function toNodes(shapes: readonly NodeShape[]): WireNode[] {
  const nodes: WireNode[] = [];
  shapes.forEach((s, i) => {
    const predIndex = s.pred === -1 ? null : s.pred === -2 ? "elsewhere" : s.pred % (i || 1);
    const predecessorId =
      predIndex === null || i === 0
        ? null
        : predIndex === "elsewhere"
          ? asNodeId("elsewhere")
          : (nodes[predIndex]?.id ?? null);
    const node = {
      id: asNodeId(`${s.id}${i}`),
      sessionId: asSessionId(s.session),
      predecessorId,
      seq: s.seq,
      kind: s.kind as NodeKind,
      content: s.content,
      status: s.status,
      callerId: s.caller === null ? null : asNodeId(s.caller),
      metadata: s.metadata,
      reads: s.reads.map(asNodeId),
      tokenCount: tokens(s.tokenCount),
      createdAt: s.time,
      ...(s.partial === undefined ? {} : { partial: s.partial }),
    };
    nodes.push(node);
  });
  return nodes;
}

/** What the page carries: its payload's characters as the RSC stream escapes them. */
const escapedLength = (value: unknown) => JSON.stringify(JSON.stringify(value)).length;

describe("the session page's ledger in columns", () => {
  it("[R293] unpacking gives back exactly the nodes packed, in their order, whatever they hold", () => {
    fc.assert(
      fc.property(fc.array(nodeShape, { maxLength: 40 }), (shapes) => {
        const nodes = toNodes(shapes);
        const packed = packLedger(S1, nodes);
        expect(unpackLedger(packed)).toStrictEqual(nodes);
        // As the page's props travel (as JSON here): what the trip keeps, the columns keep.
        const travelled = JSON.parse(JSON.stringify(packed)) as typeof packed;
        expect(unpackLedger(travelled)).toStrictEqual(JSON.parse(JSON.stringify(nodes)));
        // A long string travels as UTF-8 in the page's payload: the column must survive it.
        expect(/\p{Cs}/u.test(packed.content + packed.wide)).toBe(false);
        // Latin-1 contents travel apart from the others: one byte a character on the page.
        expect(/[\u0100-\uffff]/.test(packed.content)).toBe(false);
        const inWide = packed.contentLengths.filter((n) => n < 0).reduce((a, n) => a - n, 0);
        expect(inWide).toBe(packed.wide.length);
      }),
      { numRuns: 300 },
    );
  });

  it("[R293] a node a column cannot carry travels whole; the rest in columns", () => {
    const nodes = toNodes([]);
    const packed = packLedger(S1, nodes);
    expect(unpackLedger(packed)).toEqual([]);
    const odd: WireNode = {
      id: asNodeId("odd,id"),
      sessionId: S1,
      predecessorId: null,
      seq: 1,
      kind: "root",
      content: "",
      status: "complete",
      callerId: null,
      metadata: {},
      reads: [],
      tokenCount: tokens(0),
      createdAt: "2026-12-01T00:00:00.000Z",
    };
    const child: WireNode = { ...odd, id: asNodeId("child"), predecessorId: odd.id, seq: 2 };
    const both = packLedger(S1, [odd, child]);
    expect(both.whole).toEqual([[0, odd]]);
    expect(both.ids).toBe("child");
    expect(unpackLedger(both)).toEqual([odd, child]);
  });

  it("[R293] a node whose predecessor is not among the nodes before it packs in columns", () => {
    // A page of a skeleton pass: versions hanging off spine nodes of earlier pages.
    const base: WireNode = {
      id: asNodeId("v1"),
      sessionId: S1,
      predecessorId: asNodeId("on-an-earlier-page"),
      seq: 10,
      kind: "assistant",
      content: "a version",
      status: "complete",
      callerId: null,
      metadata: {},
      reads: [],
      tokenCount: tokens(3),
      createdAt: "2026-12-01T00:00:00.000Z",
      partial: "skeleton",
    };
    const nodes: WireNode[] = [
      base,
      { ...base, id: asNodeId("v2"), predecessorId: asNodeId("v1"), seq: 11 },
      { ...base, id: asNodeId("v3"), predecessorId: asNodeId("v4"), seq: 12 },
      { ...base, id: asNodeId("v4"), predecessorId: null, seq: 13, kind: "root" },
    ];
    const packed = packLedger(S1, nodes);
    expect(packed.whole).toEqual([]);
    expect(packed.predecessor).toEqual([0, 1, 0, 0]);
    expect(packed.outer).toEqual({ 0: "on-an-earlier-page", 2: "v4" });
    expect(unpackLedger(packed)).toStrictEqual(nodes);
  });

  it("[R293] a large session's skeletons take about a third of the characters as columns", () => {
    const file = bigLedger({ total: 2_000 });
    const nodes: WireNode[] = file.nodes.map((n, i) => ({
      ...n,
      id: asNodeId(`01M8XEPZ28X0ZM5ANPV5D${String(i).padStart(5, "0")}`),
      predecessorId: null,
      sessionId: S1,
      kind: n.kind,
      callerId: null,
      reads: [],
      tokenCount: tokens(100),
      content: n.content.slice(0, 90),
      partial: "skeleton" as const,
    }));
    // Chains as in the file (each node under the one its predecessor index names).
    const index = new Map(file.nodes.map((n, i) => [n.id, i]));
    const linked = nodes.map((n, i) => {
      const pred = file.nodes[i]?.predecessorId;
      const at = pred === null || pred === undefined ? undefined : index.get(pred);
      return { ...n, predecessorId: at === undefined ? null : (nodes[at]?.id ?? null) };
    });
    const packed = packLedger(S1, linked);
    expect(packed.whole).toEqual([]);
    expect(unpackLedger(packed)).toEqual(linked);
    const ratio = escapedLength(packed) / escapedLength(linked);
    expect(ratio).toBeLessThan(0.45);
  });
});
