import { MESSAGE_OVERHEAD_TOKENS } from "./context-tokens";
import { tokens, type Tokens } from "./ids";
import type { CompactionWork } from "./plan-compaction";
import { SUMMARY_PREFIX_TOKENS } from "./render-message";

/** Whether to persist a summary, and the rendered size it would leave. */
export type SummaryVerdict =
  | { readonly accept: true; readonly tokensAfter: Tokens }
  | {
      readonly accept: false;
      readonly reason: "empty" | "not_smaller";
      readonly tokensAfter: Tokens;
    };

/**
 * The shrink guard (issue 5): a summary is persisted only if the rendering it produces —
 * ROOT, the summary, the kept tail — costs fewer tokens than the rendering before. A
 * summary that is empty or does not shrink the context is rejected and nothing is written.
 */
export function acceptSummary(
  plan: CompactionWork,
  summary: { readonly text: string; readonly tokenCount: Tokens },
): SummaryVerdict {
  const tokensAfter = tokens(
    plan.tokensWithoutSummary +
      summary.tokenCount +
      SUMMARY_PREFIX_TOKENS +
      MESSAGE_OVERHEAD_TOKENS,
  );
  if (summary.text.trim() === "") return { accept: false, reason: "empty", tokensAfter };
  if (tokensAfter >= plan.tokensBefore)
    return { accept: false, reason: "not_smaller", tokensAfter };
  return { accept: true, tokensAfter };
}
