import { asSessionId, type SessionId } from "../engine/ids";
import type { EventBus } from "../events/session-event";

/**
 * Which credential a piece of running work belongs to: the account, and how it signed in
 * (`session:<id>` for a browser sign-in, `key:<id>` for an API key).
 */
export interface Holder {
  readonly ownerId: string;
  readonly credential: string | null;
}

/** What is revoked: a whole account, or some of its credentials. */
export interface Revocation {
  readonly ownerId: string;
  /** Only work started with these credentials; every credential when absent. */
  readonly credentials?: readonly string[];
  /** Every cookie credential but these (a password change keeps this browser). */
  readonly cookiesExcept?: readonly string[];
}

/** The bus channel revocations travel on (never a real session id: ids are ULIDs). */
export const REVOCATIONS: SessionId = asSessionId("~revocations");

/**
 * Bans and sign-outs that bite ([R147]): running turns and open event streams register here
 * with the credential that started them; revoking an account (disabled) or some of its
 * credentials (signed out, password reset, key revoked) aborts that work on this instance at
 * once and, through the event bus, on every other instance.
 */
export class AccountGate {
  private readonly running = new Map<string, Set<{ holder: Holder; ctl: AbortController }>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly bus: EventBus) {
    this.unsubscribe = bus.subscribe(REVOCATIONS, (event) => {
      if (event.type === "access_revoked") this.abortLocal(event.revocation);
    });
  }

  /**
   * A signal that aborts when the holder's access is revoked (or `also` aborts); call
   * `release` when the work ends.
   */
  track(holder: Holder, also?: AbortSignal): { signal: AbortSignal; release: () => void } {
    const ctl = new AbortController();
    const entry = { holder, ctl };
    let set = this.running.get(holder.ownerId);
    if (!set) this.running.set(holder.ownerId, (set = new Set()));
    set.add(entry);
    const release = () => {
      set.delete(entry);
      if (set.size === 0 && this.running.get(holder.ownerId) === set) {
        this.running.delete(holder.ownerId);
      }
    };
    const signal = also ? AbortSignal.any([ctl.signal, also]) : ctl.signal;
    return { signal, release };
  }

  /** Revokes here and on every instance. */
  revoke(revocation: Revocation): void {
    // The bus delivers to local subscribers too (this instance's own listener included).
    this.bus.publish(REVOCATIONS, { type: "access_revoked", revocation });
  }

  /** How much work of an account is registered here (for tests and the health of caps). */
  count(ownerId: string): number {
    return this.running.get(ownerId)?.size ?? 0;
  }

  private abortLocal(r: Revocation): void {
    for (const entry of [...(this.running.get(r.ownerId) ?? [])]) {
      const c = entry.holder.credential;
      const hit =
        r.credentials !== undefined
          ? c !== null && r.credentials.includes(c)
          : r.cookiesExcept !== undefined
            ? c !== null && c.startsWith("session:") && !r.cookiesExcept.includes(c)
            : true;
      if (hit) entry.ctl.abort(new Error("access revoked"));
    }
  }

  close(): void {
    this.unsubscribe();
  }
}
