import { AUTO_COMPACT_PERCENT } from "./resolve-budget";

/** The sizes that decide whether a turn would overfill the window. */
export interface TurnBudget {
  /** Prompt tokens of HEAD's current rendering. */
  readonly renderedTokens: number;
  /** Tokens of the message about to be sent, overhead included. */
  readonly newMessageTokens: number;
  readonly reservedOutput: number;
  readonly window: number;
}

/**
 * The budget trigger (compaction.md §4): compact before a turn when the rendering, the new
 * message and the reserved output would take at least 80% of the window.
 */
export function shouldAutoCompact(budget: TurnBudget): boolean {
  const needed = budget.renderedTokens + budget.newMessageTokens + budget.reservedOutput;
  return needed * 100 >= AUTO_COMPACT_PERCENT * budget.window;
}
