import { asNodeId, type NodeId, type Tokens } from "../engine/ids";
import type { LedgerNode, SessionRecord } from "../engine/types";
import type { ChatMessage, StreamEvent } from "../llm/types";
import { viewBelow, type HeadView } from "../view/head-view";
import { toWire, type Wire } from "../view/wire";

/**
 * A reply's model call started before the turn's claim commits ([R292]): the prompt is
 * rendered from the turn's one load with the user's message below it, and the request goes
 * out while the user node and the placeholder are written. Nothing of it is visible before
 * the commit — its events wait in the provider's stream until the reply takes them — and
 * it is aborted when the claim fails, the turn ends before its reply, or the prompt the
 * claim lets the reply send differs from the one sent early.
 */
export class EarlyReply {
  /** The prompt as rendered (before files are attached): what the reply must match. */
  readonly wire: readonly ChatMessage[];
  private readonly events: AsyncIterator<StreamEvent>;
  private readonly first: Promise<IteratorResult<StreamEvent>>;
  private state: "waiting" | "taken" | "cancelled" = "waiting";
  /**
   * When the model's first text or tool call arrived — it may wait for the claim before the
   * reply reads it: the reply's time to first token ([R236]) is the model's, not the claim's.
   */
  firstTokenAt: number | undefined;

  private constructor(
    wire: readonly ChatMessage[],
    private readonly controller: AbortController,
    events: AsyncIterable<StreamEvent>,
    /** When the request went out: the reply's time to first token counts from here. */
    readonly sentAt: number,
  ) {
    this.wire = wire;
    this.events = events[Symbol.asyncIterator]();
    // Asking for the first event sends the request; a failure is observed here and thrown
    // again to the reply that takes the stream.
    this.first = this.events.next();
    this.first.then(
      (r) => {
        if (!r.done && (r.value.type === "text" || r.value.type === "tool_calls")) {
          this.firstTokenAt = performance.now();
        }
      },
      () => undefined,
    );
  }

  /**
   * Sends the prompt `wire` through `open` (which attaches its files and calls the model
   * with the signal given), stopped by the user's `signal` or by {@link cancel}.
   */
  static async start(
    wire: Wire,
    signal: AbortSignal | undefined,
    open: (wire: Wire, signal: AbortSignal) => Promise<AsyncIterable<StreamEvent>>,
  ): Promise<EarlyReply> {
    const controller = new AbortController();
    const stop =
      signal === undefined ? controller.signal : AbortSignal.any([signal, controller.signal]);
    const sentAt = performance.now();
    let events: AsyncIterable<StreamEvent>;
    try {
      events = await open(wire, stop);
    } catch (error) {
      // A request that could not be made (its files unreadable): the reply that takes it
      // meets the failure where it would have without the early start, and seals it.
      events = failed(error);
    }
    return new EarlyReply(wire.messages, controller, events, sentAt);
  }

  /**
   * The stream, once, for a reply whose prompt (before files) is `wire`; null when the
   * prompt differs (the early request is then aborted) or the stream was taken or cancelled.
   */
  take(wire: readonly ChatMessage[]): AsyncIterable<StreamEvent> | null {
    if (this.state !== "waiting") return null;
    if (!samePrompt(this.wire, wire)) {
      this.cancel();
      return null;
    }
    this.state = "taken";
    const { events, first } = this;
    let started = false;
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          if (started) return events.next();
          started = true;
          return first;
        },
        return: async () => {
          await events.return?.();
          return { done: true, value: undefined };
        },
      }),
    };
  }

  /** Aborts the request unless a reply took it; safe to call more than once. */
  cancel(): void {
    if (this.state !== "waiting") return;
    this.state = "cancelled";
    this.controller.abort();
    // The provider ends its stream on the abort; draining it lets it release the socket.
    void this.first.then(() => this.events.return?.()).catch(() => undefined);
  }
}

// eslint-disable-next-line require-yield -- a stream that fails at its first event
async function* failed(error: unknown): AsyncGenerator<StreamEvent> {
  throw error;
}

/**
 * The same prompt: message by message, the same role, text, tool calls and files. The
 * spine's texts are the same strings in both renderings, so this costs about a pointer
 * comparison per message.
 */
function samePrompt(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (
      x.role !== y.role ||
      x.content !== y.content ||
      x.tool_call_id !== y.tool_call_id ||
      !sameJson(x.tool_calls, y.tool_calls) ||
      !sameJson(x.attachments, y.attachments)
    ) {
      return false;
    }
  }
  return true;
}

const sameJson = (x: unknown, y: unknown) => x === y || JSON.stringify(x) === JSON.stringify(y);

/**
 * The prompt a reply to a new user message will send, rendered before the message is
 * written: `view` (its predecessor's) with the message below it. The draft's id, seq and
 * time are not the node's — they never reach the prompt, which holds roles and texts;
 * {@link EarlyReply.take} compares the prompts all the same.
 */
export function promptBelow(
  view: HeadView,
  session: SessionRecord,
  content: string,
  tokenCount: Tokens,
): Wire {
  const predecessorId: NodeId | null = view.spine.at(-1)?.id ?? null;
  const draft: LedgerNode = {
    id: asNodeId("draft"),
    sessionId: session.id,
    predecessorId,
    seq: -1,
    kind: "user",
    content,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount,
    createdAt: new Date(0).toISOString(),
  };
  return toWire(viewBelow(view, draft).rendering);
}
