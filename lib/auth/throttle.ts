import { RateLimiterMemory } from "rate-limiter-flexible";

/** Failed sign-ins allowed per account, per address and server-wide within the window. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 30, global: 300 } as const;
const WINDOW_SECONDS = 15 * 60;

/**
 * Throttles password guessing. Only failures count (a user who signs in ten times in a row
 * is never locked out) and a success clears the account's count. Three buckets: per account
 * (stops guessing one password), per address (stops spraying many accounts from one place)
 * and server-wide (bounds spraying from addresses that change or are forged). Memory-backed:
 * each instance keeps its own counts (docs/security.md).
 */
export class SignInThrottle {
  private readonly account = new RateLimiterMemory({
    points: SIGN_IN_LIMITS.perAccount,
    duration: WINDOW_SECONDS,
  });
  private readonly address = new RateLimiterMemory({
    points: SIGN_IN_LIMITS.perAddress,
    duration: WINDOW_SECONDS,
  });
  private readonly global = new RateLimiterMemory({
    points: SIGN_IN_LIMITS.global,
    duration: WINDOW_SECONDS,
  });

  /** Seconds to wait before another attempt, or 0 when one may be made now. */
  async retryAfter(email: string, address: string): Promise<number> {
    const checks: [RateLimiterMemory, string, number][] = [
      [this.account, email.toLowerCase(), SIGN_IN_LIMITS.perAccount],
      [this.address, address, SIGN_IN_LIMITS.perAddress],
      [this.global, "all", SIGN_IN_LIMITS.global],
    ];
    let wait = 0;
    for (const [limiter, key, points] of checks) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= points) {
        wait = Math.max(wait, Math.ceil(res.msBeforeNext / 1000));
      }
    }
    return wait;
  }

  async failed(email: string, address: string): Promise<void> {
    // `penalty` adds points without rejecting: the check happens before the next attempt.
    await Promise.all([
      this.account.penalty(email.toLowerCase()),
      this.address.penalty(address),
      this.global.penalty("all"),
    ]);
  }

  async succeeded(email: string): Promise<void> {
    await this.account.delete(email.toLowerCase());
  }
}
