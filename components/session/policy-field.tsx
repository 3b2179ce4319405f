"use client";

import { useId } from "react";
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

function policyHint(policy: SummaryPolicy): string {
  return POLICY_OPTIONS.find((o) => o.value === policy)?.hint ?? "";
}

/**
 * "Summaries": the policy picker with the chosen policy's sentence under it (the settings
 * panel and the new-session form). `name` makes it a form field; `after` is said after the
 * sentence (the panel's "Takes effect at the next compaction.").
 */
export function PolicyField(props: {
  readonly value: SummaryPolicy;
  readonly onChange: (policy: SummaryPolicy) => void;
  readonly name?: string;
  readonly after?: string;
  readonly labelClassName?: string | undefined;
  readonly hintClassName?: string | undefined;
}) {
  const hintId = useId();
  return (
    <>
      <label className={props.labelClassName}>
        Summaries
        <select
          name={props.name}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value as SummaryPolicy)}
          aria-describedby={hintId}
        >
          {POLICY_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <p id={hintId} className={props.hintClassName}>
        {policyHint(props.value)}
        {props.after ? ` ${props.after}` : ""}
      </p>
    </>
  );
}
