import { describe, expect, it } from "vitest";
import { indexLedger, mergeCopies, removeFromLedger } from "@/components/session/ledger-merge";
import {
  versionBeside,
  versionCount,
  versionCountBelow,
  versionLabel,
  versionStep,
  versionTip,
  versionTitle,
  versionsBelow,
} from "@/components/session/versions";
import { asNodeId } from "@/lib/engine/ids";
import type { NodeKind } from "@/lib/engine/types";
import type { WireNode } from "@/lib/engine/wire-node";
import { wireNode } from "../../support/wire-node";

const wire = (x: string, pred: string | null, seq: number, kind: NodeKind): WireNode =>
  wireNode(x, pred, seq, kind);

/**
 * R → u1 → {a1, a1b → u2b → a2b, a1c}, plus a notice under u1 (a side leaf, not a version).
 * Seqs make a1 the oldest version and a2b the latest leaf under a1b.
 */
const ledger = indexLedger([
  wire("R", null, 0, "root"),
  wire("u1", "R", 1, "user"),
  wire("a1", "u1", 2, "assistant"),
  wire("note", "u1", 3, "notice"),
  wire("a1b", "u1", 4, "assistant"),
  wire("a1c", "u1", 5, "assistant"),
  wire("u2b", "a1b", 6, "user"),
  wire("a2b", "u2b", 7, "assistant"),
]);
const node = (x: string) => {
  const n = ledger.nodes.get(x);
  if (!n) throw new Error(`no ${x}`);
  return n;
};

describe("one helper for a message's versions (‹ 2/3 ›)", () => {
  it("[R290] a message's place among its versions, side leaves left out", () => {
    expect(versionsBelow(ledger, node("u1")).map((n) => n.id)).toEqual(["a1", "a1b", "a1c"]);
    expect(versionCount(ledger, node("a1b"))).toEqual([1, 3]);
    expect(versionCount(ledger, node("u2b"))).toEqual([0, 1]);
    // ROOT has no parent; a notice is not one of the versions.
    expect(versionCount(ledger, node("R"))).toEqual([0, 1]);
    expect(versionCount(ledger, node("note"))).toEqual([0, 1]);
    expect(versionLabel(1, 3)).toBe("2/3");
    expect(versionLabel(0, 1)).toBeNull();
    expect(versionTitle(1, 3)).toBe("Version 2 of 3");
  });

  it("[R290] ‹ and › step to the neighbour, compare takes the one beside, a switch lands on the latest leaf", () => {
    expect(versionStep(ledger, node("a1b"), -1)?.id).toBe("a1");
    expect(versionStep(ledger, node("a1b"), 1)?.id).toBe("a1c");
    expect(versionStep(ledger, node("a1c"), 1)).toBeUndefined();
    expect(versionBeside(ledger, node("a1"))?.id).toBe("a1b");
    expect(versionBeside(ledger, node("a1c"))?.id).toBe("a1b");
    expect(versionTip(ledger, node("a1b"))).toBe("a2b");
    expect(versionTip(ledger, node("a1"))).toBe("a1");
  });
});

describe("versions are counted once per children list", () => {
  it("[R290] a version written or removed later is counted; a parent whose children did not change keeps its count", () => {
    // Counted (and kept) before the ledger changes.
    expect(versionCount(ledger, node("a1c"))).toEqual([2, 3]);
    expect(versionCountBelow(ledger, node("u2b"))).toBe(1);
    const grown = mergeCopies(ledger, [wire("a1d", "u1", 8, "assistant")], () => false);
    if (grown === null) throw new Error("the merge changed nothing");
    const after = grown.ledger;
    const a1d = after.nodes.get("a1d");
    if (!a1d) throw new Error("no a1d");
    expect(versionCount(after, a1d)).toEqual([3, 4]);
    expect(versionCount(after, node("a1b"))).toEqual([1, 4]);
    expect(versionCountBelow(after, node("u1"))).toBe(4);
    // The ledger before is unchanged, and so is what it counts.
    expect(versionCountBelow(ledger, node("u1"))).toBe(3);
    expect(versionCountBelow(after, node("u2b"))).toBe(1);
    const shrunk = removeFromLedger(after, ["a1b", "u2b", "a2b"].map(asNodeId));
    if (shrunk === null) throw new Error("the removal changed nothing");
    expect(versionCount(shrunk, a1d)).toEqual([2, 3]);
    expect(versionCountBelow(shrunk, node("u1"))).toBe(3);
    expect(versionCountBelow(shrunk, node("a1"))).toBe(0);
  });
});
