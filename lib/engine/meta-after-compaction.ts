import type { NodeId } from "./ids";
import type { SessionMeta } from "./types";

/**
 * The session meta once summary `summaryId` is persisted (compaction.md §1, §4 step 4):
 * `_last_summary_id` and `_last_summary_text` move to it — the text exactly the node's
 * content — and the previous summary silently becomes a relic. Nothing else changes, and
 * there is no head in meta to change.
 */
export function metaAfterCompaction(
  meta: SessionMeta,
  summaryId: NodeId,
  content: string,
): SessionMeta {
  return { ...meta, _last_summary_id: summaryId, _last_summary_text: content };
}
