import { assertNever } from "./assert-never";
import type { NodeId } from "./ids";
import type { LedgerNode, NodeLookup, SessionMeta, SummaryPolicy } from "./types";

/**
 * The policy a session runs under: `settings.policy`, then the older top-level `policy`;
 * sessions written before either existed are rolling.
 */
export function summaryPolicyOf(meta: SessionMeta): SummaryPolicy {
  return meta.settings?.policy ?? meta.policy ?? "rolling-single";
}

/** Whether meta stores an active set (`_active_summary_ids`) rather than the single pointer. */
export function hasActiveSet(meta: SessionMeta): boolean {
  return Array.isArray(meta._active_summary_ids);
}

/**
 * The ids of the summaries that count as active (compaction.md §7), in the order they were
 * written. The storage is the same for every policy: `meta._active_summary_ids` when a
 * session compacted under `segmented` or `nested` (also after switching back to
 * `rolling-single`, until its next compaction absorbs them all), else at most
 * `meta._last_summary_id`. The policy decides only how the next compaction changes the set,
 * so switching it rewrites nothing. An unknown policy (smuggled in through JSON) is
 * `internal`, never a silent default.
 */
export function activeSummaryIds(
  meta: SessionMeta,
  policy: SummaryPolicy = summaryPolicyOf(meta),
): readonly NodeId[] {
  switch (policy) {
    case "rolling-single":
    case "segmented":
    case "nested":
      break;
    default:
      return assertNever(policy, "summary policy");
  }
  const set: unknown = meta._active_summary_ids;
  if (Array.isArray(set)) {
    return set.filter((value): value is NodeId => typeof value === "string");
  }
  return meta._last_summary_id === undefined ? [] : [meta._last_summary_id];
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

/**
 * Meta with `ids` as the active set. Under `rolling-single` a set of at most one summary is
 * stored the original way (`_last_summary_id` and `_last_summary_text`, the text exactly
 * `newest.content`), so a rolling session's meta is what it always was; any other set is
 * `_active_summary_ids` alone. `newest` is the summary just written, when there is one.
 */
export function withActiveSet(
  meta: SessionMeta,
  ids: readonly NodeId[],
  policy: SummaryPolicy,
  newest?: { readonly id: NodeId; readonly content: string },
): SessionMeta {
  const {
    _active_summary_ids: _set,
    _last_summary_id: _id,
    _last_summary_text: _text,
    ...rest
  } = meta;
  if (policy === "rolling-single" && ids.length <= 1) {
    const only = ids[0];
    if (only === undefined) return rest;
    if (newest !== undefined && newest.id === only) {
      return { ...rest, _last_summary_id: only, _last_summary_text: newest.content };
    }
    if (meta._last_summary_id === only && meta._last_summary_text !== undefined) {
      return { ...rest, _last_summary_id: only, _last_summary_text: meta._last_summary_text };
    }
  }
  return ids.length === 0 ? rest : { ...rest, _active_summary_ids: [...ids] };
}
