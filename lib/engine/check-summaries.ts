import type { NodeId } from "./ids";
import { isSideLeafKind } from "./side-leaf";
import type { NodeKind } from "./types";

/** What the checks read of a node (a ledger node, or one of a file being imported). */
export interface SummaryCheckNode {
  readonly id: NodeId;
  readonly kind: NodeKind;
  readonly predecessorId: NodeId | null;
  readonly metadata: { readonly covers_ids?: unknown; readonly covers_summaries?: unknown };
}
export type SummaryCheckLookup = (id: NodeId) => SummaryCheckNode | undefined;

/** The ids a node's covers_ids names, or `null` when it is not an array of strings. */
function coversOf(node: SummaryCheckNode): readonly NodeId[] | null {
  const raw: unknown = node.metadata.covers_ids;
  if (!Array.isArray(raw) || !raw.every((v) => typeof v === "string")) return null;
  return raw as NodeId[];
}

const nested = (node: SummaryCheckNode): boolean => node.metadata.covers_summaries === true;

/**
 * The turns under a summary, resolved recursively, or the problem that stops it. Memoised in
 * `done`; `open` holds the nested summaries being resolved, so a cycle is named as one.
 */
function resolve(
  summary: SummaryCheckNode,
  lookup: SummaryCheckLookup,
  done: Map<NodeId, readonly NodeId[]>,
  open: Set<NodeId>,
): readonly NodeId[] | string {
  const known = done.get(summary.id);
  if (known !== undefined) return known;
  const what = `the covers_ids of summary ${summary.id}`;
  const covers = coversOf(summary);
  if (covers === null || covers.length === 0) return `${what} are empty`;
  if (new Set(covers).size !== covers.length) return `${what} repeat an id`;
  if (!nested(summary)) {
    done.set(summary.id, covers);
    return covers;
  }
  if (open.has(summary.id)) return `nested summaries form a cycle through ${summary.id}`;
  open.add(summary.id);
  const turns: NodeId[] = [];
  for (const id of covers) {
    const inner = lookup(id);
    if (inner === undefined) return `${what} name a node not in the ledger`;
    if (inner.kind !== "summary") {
      return `${what} name a ${inner.kind}, but a nested summary covers summaries only`;
    }
    const below = resolve(inner, lookup, done, open);
    if (typeof below === "string") return below;
    turns.push(...below);
  }
  open.delete(summary.id);
  done.set(summary.id, turns);
  return turns;
}

/**
 * Why `summary`'s covers_ids are not what compaction writes (compaction.md §2, §7), or null
 * when they are: a non-empty contiguous chain segment of real turns (no ROOT, summary or
 * notice) starting right under the summary's own predecessor, each id once — or, for a
 * nested summary (`covers_summaries: true`), summaries whose segments, in that order, form
 * such a chain, with no summary nesting itself at any depth.
 */
export function summaryCoversProblem(
  summary: SummaryCheckNode,
  lookup: SummaryCheckLookup,
  done: Map<NodeId, readonly NodeId[]> = new Map(),
): string | null {
  const turns = resolve(summary, lookup, done, new Set());
  if (typeof turns === "string") return turns;
  const what = `the covers_ids of summary ${summary.id}`;
  if (new Set(turns).size !== turns.length) return `${what} cover a turn twice`;
  let expected: NodeId | null = summary.predecessorId;
  for (const id of turns) {
    const node = lookup(id);
    if (node === undefined) return `${what} name a node not in the ledger`;
    if (node.kind === "root" || isSideLeafKind(node.kind)) {
      return `${what} name a ${node.kind}, not a conversation turn`;
    }
    if (node.predecessorId !== expected) return `${what} are not one contiguous chain`;
    expected = node.id;
  }
  return null;
}

/**
 * Why `ids` cannot be a session's active set, or null when it can: every id names a summary
 * of the ledger whose covers are valid ({@link summaryCoversProblem}), none twice, and no two
 * of them stand in for the same turn (compaction.md §7: active segments are disjoint).
 */
export function activeSetProblem(
  ids: readonly NodeId[],
  lookup: SummaryCheckLookup,
): string | null {
  const done = new Map<NodeId, readonly NodeId[]>();
  const owner = new Map<NodeId, NodeId>();
  const seen = new Set<NodeId>();
  for (const id of ids) {
    if (seen.has(id)) return `the active set names summary ${id} twice`;
    seen.add(id);
    const summary = lookup(id);
    if (summary === undefined || summary.kind !== "summary") {
      return `the active set names ${id}, which is no summary of the ledger`;
    }
    const problem = summaryCoversProblem(summary, lookup, done);
    if (problem !== null) return problem;
    for (const turn of done.get(id) ?? []) {
      const other = owner.get(turn);
      if (other !== undefined) {
        return `the active summaries ${other} and ${id} overlap (both stand in for ${turn})`;
      }
      owner.set(turn, id);
    }
  }
  return null;
}
