/**
 * When and how long to wait before another attempt. The rule itself (retry only before the
 * first token) lives in the provider; this file is the arithmetic, kept apart so tests can
 * inject a zero base and a fixed random source.
 */
import type { ProviderError } from "./provider-error";

export interface RetryPolicy {
  /** Attempts after the first; 0 disables retrying. */
  readonly maxRetries: number;
  /** The first backoff step; doubles each attempt. */
  readonly baseDelayMs: number;
  /** No wait ever exceeds this, including a server's Retry-After. */
  readonly maxDelayMs: number;
  /** Source of jitter in [0, 1). */
  readonly random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  random: Math.random,
};

/**
 * The wait before retry number `attempt` (1-based): exponential with "equal jitter" (half
 * fixed, half random) so many clients rate-limited together do not return in lockstep, and
 * never less than the server's Retry-After (up to the cap).
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, error?: ProviderError): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = exponential / 2 + (exponential / 2) * policy.random();
  const floor = error?.retryAfterMs ?? 0;
  return Math.round(Math.min(policy.maxDelayMs, Math.max(jittered, floor)));
}

/** Resolves after `ms`, or early with `false` when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
