/** Lets pending I/O and timers run before a long job's next batch (setImmediate). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
