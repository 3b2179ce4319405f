import type { SummaryPolicy } from "@/lib/engine/types";

/** The compaction policies as the settings panel and the new-session form offer them. */
export const POLICY_OPTIONS: readonly {
  readonly value: SummaryPolicy;
  readonly label: string;
  /** What it does, in a sentence a user can act on. */
  readonly hint: string;
}[] = [
  {
    value: "rolling-single",
    label: "One rolling summary (default)",
    hint: "Each compaction rewrites a single summary of everything before the recent turns.",
  },
  {
    value: "segmented",
    label: "A summary per segment",
    hint: "Each compaction adds a summary of the oldest unsummarised turns and leaves earlier summaries as they are, so the start of the prompt stays the same and a provider can reuse its prompt cache.",
  },
  {
    value: "nested",
    label: "Segments, then a summary of summaries",
    hint: "Like segments; when the summaries outgrow a quarter of the context window, the oldest are summarised together.",
  },
];

export function policyHint(policy: SummaryPolicy): string {
  return POLICY_OPTIONS.find((o) => o.value === policy)?.hint ?? "";
}
