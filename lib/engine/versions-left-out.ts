import type { NodeId } from "./ids";
import { isSideLeafKind } from "./side-leaf";
import type { NodeKind } from "./types";
import { NODE_KINDS } from "./wire-decode";

/**
 * The versions of one message a near-first page was rendered without ([R294]): the page of
 * a big session carries HEAD's spine but not every other version of each spine message —
 * in the benchmark's 100,000-node session those are 28,500 of the 28,700 nodes the page
 * used to carry. It carries how many there are instead, around the spine's version: `at`
 * is the seq of the version on HEAD's spine, `before` and `after` how many versions older
 * and newer than it the page does not hold. Keyed by the parent (the message above them).
 */
export interface LeftOut {
  readonly at: number;
  readonly before: number;
  readonly after: number;
}

export type VersionsLeftOut = ReadonlyMap<NodeId, LeftOut>;

/** How a near-first page carries {@link VersionsLeftOut}: `[parentId, at, before, after]`. */
export type LeftOutWire = readonly (readonly [string, number, number, number])[];

export function leftOutOf(wire: LeftOutWire | null | undefined): VersionsLeftOut | null {
  if (wire === null || wire === undefined || wire.length === 0) return null;
  return new Map(
    wire.map(([parent, at, before, after]) => [parent as NodeId, { at, before, after }]),
  );
}

/** The kinds that are never a version of their parent (side leaves, `isSideLeafKind`). */
export const NEVER_VERSION_KINDS: readonly NodeKind[] = NODE_KINDS.filter(isSideLeafKind);

/**
 * `[index, count]` of a version among its parent's versions, from its place among those held
 * (`heldIndex` of `heldCount`) and what the page left out under that parent. Exact for the
 * version on HEAD's spine (seq `at`) and for any written after the page was rendered (newer
 * than every version left out); for another held one older than the spine's, the versions
 * left out between are not known until the rest of the ledger arrives.
 */
export function versionPlaceWith(
  heldIndex: number,
  heldCount: number,
  seq: number,
  left: LeftOut | undefined,
): readonly [index: number, count: number] {
  if (left === undefined) return [heldIndex, heldCount];
  const index = heldIndex + (seq >= left.at ? left.before : 0) + (seq > left.at ? left.after : 0);
  return [index, heldCount + left.before + left.after];
}
