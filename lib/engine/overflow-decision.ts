/** What to do when the provider reports a context overflow during a turn. */
export type OverflowDecision =
  | { readonly kind: "compact_and_retry" }
  /** Seal the reply `error` with `message`. */
  | { readonly kind: "give_up"; readonly message: string };

/** The turn's state when the provider reported an overflow. */
export interface OverflowInput {
  /** A compaction (auto or reactive) already ran during this turn. */
  readonly compactedThisTurn: boolean;
  /** The turn's model call was already retried once. */
  readonly retried: boolean;
}

const GIVE_UP =
  "The conversation no longer fits this model's context window, even after compaction. " +
  "Start a branch from an earlier message, lower “Keep recent” in Settings (keepRecentTokens), or switch to a model " +
  "with a larger window.";

/**
 * Reactive compaction (compaction.md §4, issue 5): on `provider_overflow`, compact and retry
 * the turn once. A second overflow — or one after this turn already compacted, since a turn
 * compacts at most once — ends the turn with an error that says what to do.
 */
export function overflowDecision(input: OverflowInput): OverflowDecision {
  if (input.retried || input.compactedThisTurn) return { kind: "give_up", message: GIVE_UP };
  return { kind: "compact_and_retry" };
}
