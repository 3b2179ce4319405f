import { branchTip, versionsUnder } from "@/lib/engine/branch-tip";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import { versionPlaceWith, type VersionsLeftOut } from "@/lib/engine/versions-left-out";
import { childIds, type Ledger } from "./ledger-merge";

/**
 * The versions of a message — the `‹ 2/3 ›` of the transcript, the graph's `2/3` tag, the
 * compare view's "Version 2 of 3" — in one place, by the engine's rule (`versionsUnder`,
 * the same one behind the graph's `siblingIndex` / `siblingCount`) over the browser's
 * children index ([R290]). Never a whole-ledger graph build.
 */

/**
 * The part of the ledger the version rules read; `leftOut`, on a near-first page until the
 * rest arrives, the versions it was rendered without — counted as if held ([R294]).
 */
export type VersionLedger = Pick<Ledger, "nodes" | "children"> & {
  readonly leftOut?: VersionsLeftOut | null;
};

/** `childrenOf` over the index, for the engine's branch rules (versionsUnder, branchTip). */
export function childrenLookup(ledger: VersionLedger): (id: NodeId) => readonly LedgerNode[] {
  return (id) =>
    childIds(ledger.children.get(id)).flatMap((c) => {
      const n = ledger.nodes.get(c);
      return n ? [n] : [];
    });
}

/** The alternatives under `parent`, oldest first (its children minus attachments). */
export function versionsBelow(ledger: VersionLedger, parent: LedgerNode): readonly LedgerNode[] {
  return versionsUnder(parent, childrenLookup(ledger));
}

/** Where a message stands among its parent's versions. */
export interface VersionPlace {
  readonly versions: readonly LedgerNode[];
  /** Its index among them, oldest 0; -1 when it is not one of them (an attachment). */
  readonly index: number;
}

/** `node`'s place among its versions; null when its parent is not held (or it is ROOT). */
export function versionPlace(ledger: VersionLedger, node: LedgerNode): VersionPlace | null {
  const parent = node.predecessorId ? ledger.nodes.get(node.predecessorId) : undefined;
  if (!parent) return null;
  const versions = versionsBelow(ledger, parent);
  return { versions, index: versions.findIndex((v) => v.id === node.id) };
}

/**
 * A parent's versions as ids, with each one's index. Kept per children list: the index
 * replaces a parent's list whenever a child comes or goes, and whether a child is an
 * attachment never changes (its kind, caller and predecessor are fixed when it is written),
 * so a list's versions are computed once — the transcript asks for every row it draws, on
 * every render, and a message may have hundreds of versions ([R290]).
 */
interface VersionIds {
  readonly count: number;
  readonly index: ReadonlyMap<NodeId, number>;
}

const versionIdsOf = new WeakMap<readonly NodeId[], VersionIds>();
const NO_VERSIONS: VersionIds = { count: 0, index: new Map() };

function versionIdsBelow(ledger: VersionLedger, parent: LedgerNode): VersionIds {
  const kids = ledger.children.get(parent.id);
  if (kids === undefined) return NO_VERSIONS;
  // One child: one version or none, found at once (no list to key a cache on).
  if (typeof kids === "string") return idsOf(versionsBelow(ledger, parent));
  const held = versionIdsOf.get(kids);
  if (held !== undefined) return held;
  const made = idsOf(versionsBelow(ledger, parent));
  versionIdsOf.set(kids, made);
  return made;
}

const idsOf = (versions: readonly LedgerNode[]): VersionIds => ({
  count: versions.length,
  index: new Map(versions.map((v, i) => [v.id, i])),
});

/** How many versions `parent` has below it: O(1) once its children list was seen. */
export function versionCountBelow(ledger: VersionLedger, parent: LedgerNode): number {
  const left = ledger.leftOut?.get(parent.id);
  const held = versionIdsBelow(ledger, parent).count;
  return left === undefined ? held : held + left.before + left.after;
}

/** `[index, count]` for the `‹ 2/3 ›` control: `[0, 1]` for a message with no alternative. */
export function versionCount(
  ledger: VersionLedger,
  node: LedgerNode,
): readonly [index: number, count: number] {
  const parent = node.predecessorId ? ledger.nodes.get(node.predecessorId) : undefined;
  if (!parent) return [0, 1];
  const versions = versionIdsBelow(ledger, parent);
  const index = versions.index.get(node.id);
  if (index === undefined) return [0, 1];
  return versionPlaceWith(index, versions.count, node.seq, ledger.leftOut?.get(parent.id));
}

/** The version `delta` steps from `node` (‹ is -1, › is +1); undefined past either end. */
export function versionStep(
  ledger: VersionLedger,
  node: LedgerNode,
  delta: -1 | 1,
): LedgerNode | undefined {
  const place = versionPlace(ledger, node);
  return place?.versions[place.index + delta];
}

/** The version beside `node` to compare it with: the one before it, else the one after. */
export function versionBeside(ledger: VersionLedger, node: LedgerNode): LedgerNode | undefined {
  const place = versionPlace(ledger, node);
  if (place === null) return undefined;
  return place.versions[place.index > 0 ? place.index - 1 : place.index + 1];
}

/** Where switching to `version` lands: its latest continuation ({@link branchTip}). */
export function versionTip(ledger: VersionLedger, version: LedgerNode): NodeId {
  return branchTip(version, childrenLookup(ledger));
}

/** `2/3` for the second of three versions; null for a message with no alternative. */
export function versionLabel(index: number, count: number): string | null {
  return count > 1 ? `${index + 1}/${count}` : null;
}

/** `Version 2 of 3`: the label spelled out (titles, the compare view's columns). */
export function versionTitle(index: number, count: number): string {
  return `Version ${index + 1} of ${count}`;
}
