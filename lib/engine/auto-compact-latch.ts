import { tokens, type Tokens } from "./ids";

/**
 * After a failed auto-compaction the next attempt waits until the context has grown by this
 * share of the window (a few turns' worth): retrying on every turn would re-run a failing
 * summariser call each turn. Reactive compaction on overflow is not latched.
 */
export const LATCH_RELEASE_SHARE = 0.05;

/** Remembers a failed auto-compaction: the rendered size it failed at. */
export interface AutoCompactLatch {
  readonly failedAtTokens: Tokens;
}

/** The latch to keep after an auto-compaction failed with the context at `renderedTokens`. */
export function latchAfterFailure(renderedTokens: number): AutoCompactLatch {
  return { failedAtTokens: tokens(renderedTokens) };
}

/**
 * Whether the latch still holds: the context has not grown by {@link LATCH_RELEASE_SHARE}
 * of the window since the failure.
 */
export function latchHolds(
  latch: AutoCompactLatch | null,
  renderedTokens: number,
  window: number,
): boolean {
  if (latch === null) return false;
  return renderedTokens < latch.failedAtTokens + Math.ceil(window * LATCH_RELEASE_SHARE);
}
