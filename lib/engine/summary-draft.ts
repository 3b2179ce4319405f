import type { NodeId, Tokens } from "./ids";
import type { CompactionWork } from "./plan-compaction";
import type { CompactionTrigger, NodeMetadata } from "./types";

/** The summariser's result for a plan. A provider error is never one: it fails the pipeline. */
export interface SummaryText {
  readonly text: string;
  /** Tokens of `text`, counted once by the caller. */
  readonly tokenCount: Tokens;
  readonly trigger: CompactionTrigger;
  readonly model?: string;
}

/** The summary's metadata: covers_ids plus what thrash detection and audits read back. */
export interface SummaryMetadata extends NodeMetadata {
  readonly covers_ids: readonly NodeId[];
  readonly trigger: CompactionTrigger;
  /** User turns left verbatim after the summary when it was written. */
  readonly kept_user_turns: number;
  /** The summary this one absorbed, when it chained one. */
  readonly previous_summary_id?: NodeId;
  /** The summaries this one absorbed, when it chained several (oldest first). */
  readonly absorbed_summary_ids?: readonly NodeId[];
  /** A nested summary: covers_ids names summaries (compaction.md §7). */
  readonly covers_summaries?: true;
  readonly tokens_before: Tokens;
}

/**
 * The one node a compaction writes (compaction.md §2), shaped for `SessionStore.append`:
 * `append({ sessionId, ...summaryDraft(plan, text) })`. Head-neutral by construction.
 */
export interface SummaryDraft {
  readonly kind: "summary";
  readonly predecessorId: NodeId;
  readonly content: string;
  readonly status: "complete";
  readonly tokenCount: Tokens;
  readonly callerId: null;
  readonly metadata: SummaryMetadata;
  /** The summariser call's provenance: the covered slice, the previous summary's own id. */
  readonly reads: readonly NodeId[];
  readonly advanceHead: false;
}

/** Builds the summary node a plan persists. Nothing else is written or changed. */
export function summaryDraft(plan: CompactionWork, summary: SummaryText): SummaryDraft {
  return {
    kind: "summary",
    predecessorId: plan.predecessorId,
    content: summary.text,
    status: "complete",
    tokenCount: summary.tokenCount,
    callerId: null,
    metadata: {
      covers_ids: plan.coversIds,
      trigger: summary.trigger,
      kept_user_turns: plan.keptUserTurns,
      tokens_before: plan.tokensBefore,
      ...(plan.previousSummary !== null ? { previous_summary_id: plan.previousSummary.id } : {}),
      ...(plan.absorbed.length > 1 && !plan.coversSummaries
        ? { absorbed_summary_ids: plan.absorbed.map((s) => s.id) }
        : {}),
      ...(plan.coversSummaries ? { covers_summaries: true as const } : {}),
      ...(summary.model !== undefined ? { model: summary.model } : {}),
    },
    reads: plan.reads,
    advanceHead: false,
  };
}
