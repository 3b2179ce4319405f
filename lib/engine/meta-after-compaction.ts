import { withActiveSet } from "./active-summaries";
import type { NodeId } from "./ids";
import { activeSetAfter, type CompactionWork } from "./plan-compaction";
import type { SessionMeta, SummaryPolicy } from "./types";

/**
 * The session meta once summary `summaryId` is persisted (compaction.md §1, §4 step 4):
 * `_last_summary_id` and `_last_summary_text` move to it — the text exactly the node's
 * content — and the previous summary silently becomes a relic. Nothing else changes, and
 * there is no head in meta to change. (`rolling-single`; {@link metaAfterPlan} is the
 * general form.)
 */
export function metaAfterCompaction(
  meta: SessionMeta,
  summaryId: NodeId,
  content: string,
): SessionMeta {
  if (!("_active_summary_ids" in meta)) {
    return { ...meta, _last_summary_id: summaryId, _last_summary_text: content };
  }
  return withActiveSet(meta, [summaryId], "rolling-single", { id: summaryId, content });
}

/**
 * The session meta once `plan`'s summary has landed, under any policy: the active set
 * becomes {@link activeSetAfter} — the retired and absorbed summaries leave it, the new one
 * joins — stored as {@link withActiveSet} says (a rolling session's meta exactly as
 * {@link metaAfterCompaction} writes it).
 */
export function metaAfterPlan(
  meta: SessionMeta,
  plan: CompactionWork,
  policy: SummaryPolicy,
  summary: { readonly id: NodeId; readonly content: string },
): SessionMeta {
  if (policy === "rolling-single") return metaAfterCompaction(meta, summary.id, summary.content);
  return withActiveSet(meta, activeSetAfter(plan, summary.id), policy, summary);
}
