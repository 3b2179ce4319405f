import { latchHolds, type AutoCompactLatch } from "./auto-compact-latch";
import { shouldAutoCompact, type TurnBudget } from "./should-auto-compact";

/**
 * Auto-compaction firing again within this many user turns of the previous compaction on
 * the same branch is thrash: the kept tail and summary already fill the window, and another
 * round would only summarise the summary.
 */
export const THRASH_TURNS = 3;

/** Everything the pre-turn decision looks at; all of it plain data the dispatcher holds. */
export interface AutoCompactInput extends TurnBudget {
  /** `Budget.autoCompact`: the session's switch. */
  readonly enabled: boolean;
  /** A compaction already ran during this turn (at most one per turn). */
  readonly compactedThisTurn: boolean;
  readonly latch: AutoCompactLatch | null;
  /** {@link turnsSinceCompaction} of HEAD's rendering; null when the branch is raw. */
  readonly turnsSinceCompaction: number | null;
}

/** What to do before a turn. */
export type AutoCompactDecision =
  | { readonly kind: "compact" }
  | {
      readonly kind: "skip";
      readonly reason: "disabled" | "under_threshold" | "already_compacted" | "latched";
    }
  /** Do not compact; tell the user the window is too small for the kept tail. */
  | { readonly kind: "thrash"; readonly message: string };

/**
 * Whether to auto-compact before a turn, with the guards of issue 5 applied in order: the
 * session's switch, the 80% trigger, at most one compaction per turn, the failure latch,
 * and thrash detection (which says so instead of looping).
 */
export function autoCompactDecision(input: AutoCompactInput): AutoCompactDecision {
  if (!input.enabled) return { kind: "skip", reason: "disabled" };
  if (!shouldAutoCompact(input)) return { kind: "skip", reason: "under_threshold" };
  if (input.compactedThisTurn) return { kind: "skip", reason: "already_compacted" };
  if (latchHolds(input.latch, input.renderedTokens, input.window)) {
    return { kind: "skip", reason: "latched" };
  }
  if (input.turnsSinceCompaction !== null && input.turnsSinceCompaction < THRASH_TURNS) {
    return {
      kind: "thrash",
      message:
        `The context is full again ${turnsText(input.turnsSinceCompaction)} after the last compaction. ` +
        "Lower “Keep recent” in Settings (keepRecentTokens), switch to a model with a larger window, or start a new branch.",
    };
  }
  return { kind: "compact" };
}

function turnsText(n: number): string {
  return n === 1 ? "one turn" : `${n} turns`;
}
