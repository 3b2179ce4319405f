/**
 * Collects a streaming reply's text and writes it to the ledger at most every `flushMs`
 * (never a write per token), renewing the node's lease while it lives, including through a
 * long silent wait for the first token.
 */
export interface StreamBufferOptions {
  readonly flushMs: number;
  /** Renew the lease at least this often even when no text arrives. */
  readonly keepAliveMs: number;
  /** Persists the whole text so far; also renews the lease. */
  readonly write: (text: string) => Promise<void>;
  /**
   * Called with the text that arrived since the previous flush and where it starts in the
   * whole text (for other subscribers), once it is written.
   */
  readonly onFlush?: (chunk: string, offset: number) => void;
  readonly now?: () => number;
}

export class StreamBuffer {
  private text = "";
  private flushedLength = 0;
  private lastWrite: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly now: () => number;

  constructor(private readonly options: StreamBufferOptions) {
    this.now = options.now ?? Date.now;
    this.lastWrite = this.now();
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.options.flushMs);
  }

  append(chunk: string): void {
    if (this.failure !== undefined) throw this.failure;
    this.text += chunk;
  }

  get content(): string {
    return this.text;
  }

  /** Stops the timer and waits for the write in flight; the caller seals the node next. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.writing;
  }

  private tick(): void {
    const pending = this.text.length > this.flushedLength;
    const stale = this.now() - this.lastWrite >= this.options.keepAliveMs;
    if (!pending && !stale) return;
    const snapshot = this.text;
    const offset = this.flushedLength;
    const chunk = snapshot.slice(offset);
    this.flushedLength = snapshot.length;
    this.lastWrite = this.now();
    this.writing = this.writing
      .then(() => this.options.write(snapshot))
      .then(() => {
        if (chunk) this.options.onFlush?.(chunk, offset);
      })
      .catch((e: unknown) => {
        this.failure = e;
      });
  }
}
