import { EngineError, type ErrorCode } from "../engine/errors";

/** The kinds of work one account may hold only a few of at once ([R148]). */
export type AdmissionKind = "event_streams" | "imports" | "heavy_reads";

export type AdmissionLimits = Readonly<Record<AdmissionKind, number>>;

/** Seconds a refused caller is told to wait (`Retry-After`). */
export const ADMISSION_RETRY_SECONDS: Readonly<Record<AdmissionKind, number>> = {
  event_streams: 10,
  imports: 5,
  heavy_reads: 2,
};

const REFUSAL: Readonly<
  Record<AdmissionKind, { code: ErrorCode; message: (n: number) => string }>
> = {
  event_streams: {
    code: "too_many_streams",
    message: (n) =>
      `This account already has ${n} event streams open; close a tab (or a script's stream) and try again.`,
  },
  imports: {
    code: "import_busy",
    message: (n) =>
      `This account already has ${n} import${n === 1 ? "" : "s"} being written; wait for ${n === 1 ? "it" : "them"} to finish.`,
  },
  heavy_reads: {
    code: "account_busy",
    message: (n) =>
      `This account is already reading ${n} large session${n === 1 ? "" : "s"} at once; try again in a moment.`,
  },
};

/**
 * Per-account admission, in this process ([R148]): each account may hold at most
 * `limits[kind]` of each kind at once, so one account's flood (thousands of event streams,
 * parallel 100,000-node imports, parallel graph reads of a huge session) is refused with a
 * 429 and `Retry-After` while every other account's requests are admitted as usual.
 */
export class Admission {
  private readonly held = new Map<string, number>();

  constructor(private readonly limits: AdmissionLimits) {}

  /**
   * Takes one of `ownerId`'s places of `kind`; the returned function gives it back (once).
   * @throws EngineError 429 (`too_many_streams`, `import_busy`, `account_busy`) past the limit.
   */
  enter(kind: AdmissionKind, ownerId: string): () => void {
    const key = `${kind}\u0000${ownerId}`;
    const now = this.held.get(key) ?? 0;
    const limit = this.limits[kind];
    if (now >= limit) {
      const refusal = REFUSAL[kind];
      throw new EngineError(refusal.code, refusal.message(limit), {
        retryAfterSeconds: ADMISSION_RETRY_SECONDS[kind],
      });
    }
    this.held.set(key, now + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left <= 0) this.held.delete(key);
      else this.held.set(key, left);
    };
  }

  /** How many places of `kind` the account holds now. */
  holding(kind: AdmissionKind, ownerId: string): number {
    return this.held.get(`${kind}\u0000${ownerId}`) ?? 0;
  }
}
