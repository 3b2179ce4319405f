import { coversIdsOf } from "./covers-ids-of";
import type { NodeId } from "./ids";
import type { LedgerNode } from "./types";

/** Finds a summary by id; `undefined` when it is not known. */
export type SummaryLookup = (id: NodeId) => LedgerNode | undefined;

/**
 * Whether a summary is nested (compaction.md §7, "a summary of summaries"): its covers_ids
 * name the summaries it stands in for, not turns.
 */
export function isNestedSummary(node: LedgerNode): boolean {
  return node.kind === "summary" && node.metadata.covers_summaries === true;
}

/** The summaries a nested summary names, oldest first; nothing for any other node. */
export function innerSummaryIds(node: LedgerNode): readonly NodeId[] {
  return isNestedSummary(node) ? coversIdsOf(node) : [];
}

/**
 * The real turns a summary stands in for, in chain order: its covers_ids — or, nested, the
 * turns of the summaries it names, recursively. `null` when that cannot be told: a named
 * summary that `lookup` does not know or that is not a summary, or nesting that cycles.
 * Such a summary never applies. Linear in the turns and summaries it reaches.
 */
export function turnsOf(summary: LedgerNode, lookup: SummaryLookup): readonly NodeId[] | null {
  const out: NodeId[] = [];
  const open = new Set<NodeId>();
  const walk = (node: LedgerNode): boolean => {
    if (node.kind !== "summary" || open.has(node.id)) return false;
    if (!isNestedSummary(node)) {
      out.push(...coversIdsOf(node));
      return true;
    }
    open.add(node.id);
    const inner = coversIdsOf(node);
    if (inner.length === 0) return false;
    for (const id of inner) {
      const next = lookup(id);
      if (next === undefined || !walk(next)) return false;
    }
    open.delete(node.id);
    return true;
  };
  return walk(summary) ? out : null;
}

/**
 * The summaries nested under `summaries` (recursively) that `have` does not know yet: what a
 * loader must fetch next so {@link turnsOf} can answer. Empty when every nested summary's
 * inner summaries are known — plain summaries need nothing.
 */
export function innerSummariesToLoad(
  summaries: readonly LedgerNode[],
  have: (id: NodeId) => boolean,
): readonly NodeId[] {
  const wanted = new Set<NodeId>();
  for (const summary of summaries) {
    for (const id of innerSummaryIds(summary)) if (!have(id)) wanted.add(id);
  }
  return [...wanted];
}

/**
 * The summaries nested under `summaries`, at every depth, that `lookup` knows: what a
 * rendering needs beside the active set ({@link turnsOf} resolves through them). Each once,
 * a cycle ending where it closes.
 */
export function innerSummariesOf(
  summaries: readonly LedgerNode[],
  lookup: SummaryLookup,
): readonly LedgerNode[] {
  const out: LedgerNode[] = [];
  const seen = new Set<NodeId>(summaries.map((s) => s.id));
  const stack = [...summaries];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const id of innerSummaryIds(next)) {
      const inner = lookup(id);
      if (inner === undefined || inner.kind !== "summary" || seen.has(id)) continue;
      seen.add(id);
      out.push(inner);
      stack.push(inner);
    }
  }
  return out;
}

/**
 * The summaries nested under `summaries`, level by level through `read` (which answers the
 * ids it finds): one read per level of nesting, a cycle ending when a level finds nothing
 * new. Rolling and segmented sessions hold no nested summary: no read is made. The page's
 * views and the store's `reads` expansion both load them through here.
 */
export async function loadInnerSummaries(
  summaries: readonly LedgerNode[],
  read: (ids: readonly NodeId[]) => Promise<readonly LedgerNode[]>,
): Promise<readonly LedgerNode[]> {
  const known = new Set<NodeId>(summaries.map((s) => s.id));
  const inner: LedgerNode[] = [];
  let level: readonly LedgerNode[] = summaries;
  // Each level is one read; a cycle ends when a level finds nothing new.
  for (;;) {
    const ids = innerSummariesToLoad(level, (id) => known.has(id));
    if (ids.length === 0) return inner;
    const found = (await read(ids)).filter((n) => n.kind === "summary" && !known.has(n.id));
    if (found.length === 0) return inner;
    for (const node of found) known.add(node.id);
    inner.push(...found);
    level = found;
  }
}
