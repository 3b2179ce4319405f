import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/** Sign-in attempts allowed per account and per address, and sign-ups per address. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 30, signUpsPerAddress: 10 } as const;
const WINDOW_SECONDS = 15 * 60;
const SIGN_UP_WINDOW_SECONDS = 60 * 60;

/** Seconds to wait, or 0 when the attempt may go ahead. */
export type Verdict = number;

/**
 * Throttles password guessing. An attempt takes its points *before* the password is checked
 * (so a burst of parallel guesses cannot all pass a check made before any failure was
 * counted) and a successful sign-in gives them back, so only failures add up. Two buckets:
 * per account (guessing one password) and per address (spraying many accounts from one
 * place). Sign-ups are limited per address: each costs a password hash. Memory-backed: each
 * instance keeps its own counts (docs/security.md).
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
  private readonly signUps = new RateLimiterMemory({
    points: SIGN_IN_LIMITS.signUpsPerAddress,
    duration: SIGN_UP_WINDOW_SECONDS,
  });

  /** Takes a sign-in attempt's points; the wait when either bucket is spent. */
  async attempt(email: string, address: string): Promise<Verdict> {
    const key = email.trim().toLowerCase();
    const results = await Promise.allSettled([
      this.account.consume(key),
      this.address.consume(address),
    ]);
    const refused = results.flatMap((r) =>
      r.status === "rejected" && r.reason instanceof RateLimiterRes ? [r.reason] : [],
    );
    if (refused.length === 0) return 0;
    return Math.max(...refused.map((r) => Math.ceil(r.msBeforeNext / 1000)), 1);
  }

  /** A sign-in succeeded: its points (and the account's earlier failures) are forgiven. */
  async succeeded(email: string, address: string): Promise<void> {
    await Promise.all([
      this.account.delete(email.trim().toLowerCase()),
      this.address.reward(address, 1),
    ]);
  }

  /** Takes a sign-up's point; the wait when the address has made too many. */
  async signUp(address: string): Promise<Verdict> {
    try {
      await this.signUps.consume(address);
      return 0;
    } catch (e) {
      if (e instanceof RateLimiterRes) return Math.max(Math.ceil(e.msBeforeNext / 1000), 1);
      throw e;
    }
  }
}
