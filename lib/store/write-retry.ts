/**
 * Retries a write transaction that lost a race: SQLite's SQLITE_BUSY (another process held
 * the write lock past the busy timeout), PostgreSQL's serialization failure (40001) and
 * deadlock (40P01), which Prisma reports as P2034. Anything else is rethrown at once.
 */
const RETRYABLE =
  /SQLITE_BUSY|database is locked|40001|40P01|P2034|deadlock detected|could not serialize/i;

export function isRetryableWriteError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (code === "P2034" || code === "40001" || code === "40P01") return true;
  return e instanceof Error && RETRYABLE.test(`${e.message} ${String(e.cause ?? "")}`);
}

export async function withWriteRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= attempts || !isRetryableWriteError(e)) throw e;
      // Jittered backoff so two colliding writers do not collide again in lockstep.
      const delay = 10 * 2 ** attempt * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
