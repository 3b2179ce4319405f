import { activeSummaryIds } from "../engine/active-summaries";
import type { NodeId } from "../engine/ids";
import type { SessionRecord } from "../engine/types";

/** A session as `GET` / `PATCH /api/sessions/:id` answer it. */
export type SessionBody = SessionRecord & {
  /**
   * The active summaries in order (compaction.md §7), whatever the policy and however meta
   * stores them (`_last_summary_id`, or `_active_summary_ids`): what scripts should read.
   */
  readonly activeSummaryIds: readonly NodeId[];
};

/** The session record with its active set beside today's fields (extend, never rename). */
export function sessionBody(session: SessionRecord): SessionBody {
  return { ...session, activeSummaryIds: activeSummaryIds(session.meta) };
}
