import { EngineError } from "./errors";
import { tokens, type Tokens } from "./ids";
import type { SessionSettings } from "./types";

/**
 * Auto-compaction fires when a turn would fill this percentage of the window (compaction.md
 * §4). A whole percentage keeps the comparison exact in integer arithmetic.
 */
export const AUTO_COMPACT_PERCENT = 80;

/**
 * Default `keepRecentTokens`: a fifth of the window. After a compaction the context is then
 * ROOT + summary + at most 20% — well under the 80% trigger, so several turns fit before the
 * next compaction, while the last few exchanges stay verbatim.
 */
export const KEEP_RECENT_SHARE = 0.2;

/**
 * The kept tail is clamped to half the window: a larger one would leave compaction unable
 * to bring the context under the threshold and auto-compaction would thrash.
 */
export const MAX_KEEP_RECENT_SHARE = 0.5;

/**
 * The share of the window the summaries a branch reads may take under `segmented` (past it,
 * the next compaction merges them) and `nested` (past it, the oldest are nested): with the
 * kept tail's fifth, it leaves over half the window for new turns between compactions.
 */
export const SUMMARIES_SHARE = 0.25;

/** The prompt tokens a rendering's summaries may cost ({@link SUMMARIES_SHARE}). */
export function summariesBudgetOf(window: number): number {
  return Math.floor(window * SUMMARIES_SHARE);
}

/** Tokens held back for the reply: a tenth of the window, at most 4096. */
export const RESERVED_OUTPUT_SHARE = 0.1;
/** Upper bound of the reserved output. */
export const MAX_RESERVED_OUTPUT: Tokens = tokens(4096);

/** The token budget one session's turns run under. */
export interface Budget {
  readonly window: Tokens;
  readonly keepRecentTokens: Tokens;
  readonly reservedOutput: Tokens;
  readonly autoCompact: boolean;
}

/** Where the budget's numbers can come from, most specific first. */
export interface BudgetSources {
  /** `meta.settings`: per-session overrides. */
  readonly settings?: SessionSettings | undefined;
  /** The model's context window from the model registry. */
  readonly modelWindow: number;
  /** `SPINDLE_CONTEXT_WINDOW`: the server-wide override. */
  readonly serverWindow?: number | undefined;
  /** `SPINDLE_KEEP_RECENT_TOKENS`: the server-wide default. */
  readonly serverKeepRecentTokens?: number | undefined;
}

/**
 * Resolves a session's budget. Precedence, most specific first: the session's settings, the
 * server-wide environment, the model registry (for the window) or the default share (for
 * the kept tail). Auto-compaction is on unless the session turns it off.
 *
 * @throws EngineError `invalid_request` when the resolved window is not a positive integer.
 */
export function resolveBudget(sources: BudgetSources): Budget {
  const window = sources.settings?.contextWindow ?? sources.serverWindow ?? sources.modelWindow;
  if (!Number.isInteger(window) || window <= 0) {
    throw new EngineError("invalid_request", `A context window of ${window} tokens is invalid.`);
  }
  const requested =
    sources.settings?.keepRecentTokens ??
    sources.serverKeepRecentTokens ??
    Math.floor(window * KEEP_RECENT_SHARE);
  const keep = Math.max(
    0,
    Math.min(Math.floor(requested), Math.floor(window * MAX_KEEP_RECENT_SHARE)),
  );
  return {
    window: tokens(window),
    keepRecentTokens: tokens(keep),
    reservedOutput: tokens(
      Math.min(MAX_RESERVED_OUTPUT, Math.floor(window * RESERVED_OUTPUT_SHARE)),
    ),
    autoCompact: sources.settings?.autoCompact ?? true,
  };
}
