/**
 * Collects a streaming reply's text and writes it to the ledger at most every `flushMs`
 * (never a write per token; the server's 250 ms is at most 4 a second), renewing the node's
 * lease while it lives, including through a long silent wait for the first token. Each
 * write carries only the text that arrived since the previous one ([R117]).
 */
export interface StreamBufferOptions {
  readonly flushMs: number;
  /** Renew the lease at least this often even when no text arrives. */
  readonly keepAliveMs: number;
  /**
   * Appends `chunk` (the text since the previous write, which starts at `offset` in the
   * whole text) to the stored reply and renews the lease; an empty chunk only renews it.
   * Writes run one at a time, in order.
   */
  readonly write: (chunk: string, offset: number) => Promise<void>;
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
  private storedLength = 0;
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

  /**
   * How much of {@link content} (UTF-16 units) the writes are known to have stored, once
   * {@link stop} returned; `null` after a failed write, whose outcome is unknown: the stored
   * prefix is then doubtful and the seal writes the whole text ([R133]).
   */
  get stored(): number | null {
    return this.failure === undefined ? this.storedLength : null;
  }

  /** Stops the timer and waits for the write in flight; the caller seals the node next. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.writing;
  }

  private tick(): void {
    // After a failed write the stored text has a hole: nothing more is appended after it
    // (the seal writes the whole text, or the turn ends with the failure).
    if (this.failure !== undefined) return;
    const pending = this.text.length > this.flushedLength;
    const stale = this.now() - this.lastWrite >= this.options.keepAliveMs;
    if (!pending && !stale) return;
    const offset = this.flushedLength;
    const chunk = this.text.slice(offset);
    this.flushedLength = this.text.length;
    this.lastWrite = this.now();
    this.writing = this.writing
      .then(() => {
        if (this.failure === undefined) return this.options.write(chunk, offset);
        return undefined;
      })
      .then(() => {
        if (this.failure === undefined) this.storedLength = offset + chunk.length;
        if (chunk && this.failure === undefined) this.options.onFlush?.(chunk, offset);
      })
      .catch((e: unknown) => {
        this.failure = e;
      });
  }
}
