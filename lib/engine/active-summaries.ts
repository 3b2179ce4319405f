import { assertNever } from "./assert-never";
import type { NodeId } from "./ids";
import type { LedgerNode, NodeLookup, SessionMeta, SummaryPolicy } from "./types";

/** The policy a session runs under; sessions written before the field existed are rolling. */
export function summaryPolicyOf(meta: SessionMeta): SummaryPolicy {
  return meta.policy ?? "rolling-single";
}

/**
 * The ids of the summaries that count as active under `policy` (compaction.md §7: which
 * summaries are active is a policy field; the storage is the same for every policy).
 * `rolling-single`: at most one, `meta._last_summary_id`.
 */
export function activeSummaryIds(
  meta: SessionMeta,
  policy: SummaryPolicy = summaryPolicyOf(meta),
): readonly NodeId[] {
  switch (policy) {
    case "rolling-single":
      return meta._last_summary_id === undefined ? [] : [meta._last_summary_id];
    default:
      return assertNever(policy, "summary policy");
  }
}

/**
 * The active summary nodes, resolved through `getNode`. An id that names no node, or a node
 * that is not a summary, is left out: a dangling pointer must not change a rendering.
 * Everything else — relics — is never consulted.
 */
export function activeSummaries(
  meta: SessionMeta,
  getNode: NodeLookup,
  policy: SummaryPolicy = summaryPolicyOf(meta),
): readonly LedgerNode[] {
  const found: LedgerNode[] = [];
  for (const id of activeSummaryIds(meta, policy)) {
    const node = getNode(id);
    if (node !== undefined && node.kind === "summary") found.push(node);
  }
  return found;
}
