import type { NodeId } from "./ids";
import { innerSummaryIds, type SummaryLookup } from "./summary-turns";
import type { LedgerNode } from "./types";

/** An active set after some of its summaries were retired. */
export interface RetiredSet {
  /** The set that stays active, in order. */
  readonly active: readonly NodeId[];
  /** The summaries that stopped being active (nested ones' inner summaries included). */
  readonly retired: readonly NodeId[];
}

/**
 * Retires from the active set `ids` every summary `doomed` says can no longer stand: a
 * nested summary that goes hands its place to the summaries it names, each judged the same
 * way, so a summary that still holds is never lost with the one that nested it (a fork that
 * shares only the first segments of a nested summary keeps them summarised). Promoted
 * summaries take their parent's place in the order. Ids `lookup` does not know stay as they
 * are: a dangling pointer changes no rendering, and retiring is not this function's call.
 */
export function retireSummaries(
  ids: readonly NodeId[],
  doomed: (summary: LedgerNode) => boolean,
  lookup: SummaryLookup,
): RetiredSet {
  const active: NodeId[] = [];
  const retired: NodeId[] = [];
  const seen = new Set<NodeId>();
  const judge = (id: NodeId, top: boolean): void => {
    if (seen.has(id)) return;
    seen.add(id);
    const summary = lookup(id);
    if (summary === undefined) {
      if (top) active.push(id);
      return;
    }
    if (!doomed(summary)) {
      active.push(id);
      return;
    }
    retired.push(id);
    for (const inner of innerSummaryIds(summary)) judge(inner, false);
  };
  for (const id of ids) judge(id, true);
  return { active, retired };
}
