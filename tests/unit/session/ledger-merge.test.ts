import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  appendDelta,
  childIds,
  indexLedger,
  mergeCopies,
  nodeOf,
  removeFromLedger,
  type Ledger,
} from "@/components/session/ledger-merge";
import { diffMaps } from "@/components/session/persistent-map";
import { asNodeId } from "@/lib/engine/ids";
import type { WireNode } from "@/lib/engine/wire-node";
import { wireNode } from "../../support/wire-node";

const id = (x: string) => asNodeId(x);

function wire(
  x: string,
  pred: string | null,
  seq: number,
  extra: Partial<WireNode> = {},
): WireNode {
  const kind = pred === null ? "root" : seq % 2 === 1 ? "user" : "assistant";
  return wireNode(x, pred, seq, kind, { content: `text of ${x}`, ...extra });
}

/** ROOT and a chain n1…n{count}. */
function chain(count: number): WireNode[] {
  const out = [wire("R", null, 0)];
  for (let i = 1; i <= count; i++) out.push(wire(`n${i}`, i === 1 ? "R" : `n${i - 1}`, i));
  return out;
}

/** Slots the diff of the two versions' node maps looked at: the cost of the change. */
function walked(a: Ledger, b: Ledger): number {
  return diffMaps(
    a.nodes,
    b.nodes,
    () => undefined,
    () => undefined,
  );
}

describe("the ledger's merge rules, pure", () => {
  it("[R289] a first ledger indexed at once is the ledger merging its nodes one by one makes", () => {
    // A random tree in a random order: each node hangs under an earlier one, some stream.
    const tree = fc
      .array(fc.tuple(fc.nat(), fc.boolean(), fc.nat({ max: 3 })), { maxLength: 300 })
      .chain((shape) =>
        fc.shuffledSubarray(
          shape.map(([parent, streaming], i) =>
            wire(
              `n${i}`,
              i === 0 ? null : `n${parent % i}`,
              // Steps of 0 give equal seqs: the order among them is the list's.
              shape.slice(0, i + 1).reduce((sum, [, , d]) => sum + d, 0),
              streaming ? { status: "streaming" } : {},
            ),
          ),
          { minLength: shape.length, maxLength: shape.length },
        ),
      );
    fc.assert(
      fc.property(tree, fc.boolean(), (nodes, twice) => {
        // A node listed twice takes the merging path; the result must still be the same.
        const list = twice && nodes.length > 0 ? [...nodes, nodes[0] as WireNode] : nodes;
        const merged = mergeCopies(
          indexLedger([]),
          [...list].sort((a, b) => a.seq - b.seq),
        );
        expect(indexLedger(list)).toStrictEqual(merged?.ledger ?? indexLedger([]));
      }),
      { numRuns: 80 },
    );
  });

  it("[R289] a new node is written into a 10,000-node ledger without copying it", () => {
    const before = indexLedger(chain(10_000));
    const change = mergeCopies(before, [wire("x", "n10000", 10_001)]);
    if (change === null) throw new Error("no change");
    const after = change.ledger;
    expect([change.structural, change.graphChanged]).toEqual([true, true]);
    expect(after.nodes.size).toBe(10_002);
    expect(before.nodes.size).toBe(10_001);
    expect(after.nodes.get("x")?.seq).toBe(10_001);
    expect(before.nodes.get("x")).toBeUndefined();
    expect(childIds(after.children.get("n10000"))).toEqual(["x"]);
    expect(after.maxSeq).toBe(10_001);
    // The versions share all but the path to the new entry: a few branches of 32 slots.
    expect(walked(before, after)).toBeLessThan(200);
    expect(walked(indexLedger([]), after)).toBeGreaterThan(10_000);
  });

  it("[R289] a streamed chunk lands at its offset, once, and touches only the live copy", () => {
    const streaming = wire("n3", "n2", 3, { status: "streaming", content: "Hel" });
    const ledger = indexLedger([...chain(2), streaming]);
    const step = appendDelta(ledger, id("n3"), "lo", 3);
    if (!step.ok) throw new Error("refused");
    expect(nodeOf(step.ledger, "n3")?.content).toBe("Hello");
    expect(step.ledger.nodes).toBe(ledger.nodes);
    expect(step.ledger.children).toBe(ledger.children);
    // Text already held is skipped; a chunk that starts past the end asks for a refetch.
    const again = appendDelta(step.ledger, id("n3"), "llo", 2);
    expect(again.ok && nodeOf(again.ledger, "n3")?.content).toBe("Hello");
    expect(appendDelta(step.ledger, id("n3"), "!", 9)).toEqual({ ok: false });
    // A sealed node has nothing to add; an unknown one must be fetched.
    expect(appendDelta(step.ledger, id("n2"), "x", 0).ok).toBe(true);
    expect(appendDelta(step.ledger, id("zz"), "x", 0)).toEqual({ ok: false });
  });

  it("[R289] sealing a streaming node moves it out of live and into the ledger; an equal copy changes nothing", () => {
    const streaming = wire("n3", "n2", 3, { status: "streaming", content: "Hel" });
    const ledger = indexLedger([...chain(2), streaming]);
    expect(Object.keys(ledger.live)).toEqual(["n3"]);
    const sealed = mergeCopies(ledger, [{ ...streaming, status: "complete", content: "Hello" }]);
    expect(sealed?.structural).toBe(true);
    expect(sealed?.ledger.live).toEqual({});
    expect(sealed?.ledger.nodes.get("n3")?.content).toBe("Hello");
    const held = sealed?.ledger.nodes.get("n3");
    if (!sealed || !held) throw new Error("no change");
    expect(mergeCopies(sealed.ledger, [held])).toBeNull();
    // A late streaming copy never regresses the sealed one ([R121]).
    expect(mergeCopies(sealed.ledger, [streaming])).toBeNull();
  });

  it("[R289] removal drops the ids and their children entries; a removed id's copy is a ghost", () => {
    const ledger = indexLedger(chain(4));
    const pruned = removeFromLedger(ledger, [id("n3"), id("n4")]);
    if (pruned === null) throw new Error("no change");
    expect(pruned.nodes.keys().sort()).toEqual(["R", "n1", "n2"]);
    expect(pruned.children.get("n2")).toBeUndefined();
    expect(pruned.children.get("n3")).toBeUndefined();
    expect(ledger.nodes.size).toBe(5);
    expect(removeFromLedger(pruned, [id("n3")])).toBeNull();
    const removed = new Set(["n3"]);
    expect(mergeCopies(pruned, [wire("n3", "n2", 3)], (x) => removed.has(x))).toBeNull();
  });

  it("[R289] a parent with one child holds the id alone; a second makes a list in seq order, a removal one again", () => {
    const built = indexLedger(chain(3));
    // One child each: the id itself, no array (28 bytes less a parent on the page).
    expect(built.children.get("n1")).toBe("n2");
    const forked = mergeCopies(built, [wire("z", "n1", 9), wire("y", "n1", 8)])?.ledger;
    if (forked === undefined) throw new Error("no change");
    expect(forked.children.get("n1")).toEqual(["n2", "y", "z"]);
    const again = removeFromLedger(forked, [id("y"), id("z")]);
    expect(again?.children.get("n1")).toBe("n2");
    // Built at once from the same nodes, the index is the one merging them made.
    const whole = indexLedger([...chain(3), wire("z", "n1", 9), wire("y", "n1", 8)]);
    expect(whole.children.get("n1")).toEqual(["n2", "y", "z"]);
    expect(childIds(whole.children.get("n3"))).toEqual([]);
  });
});
