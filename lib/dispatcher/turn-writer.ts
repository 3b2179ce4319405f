import type { EventBus } from "../events/session-event";
import type { NoticeCode } from "../engine/events";
import type { NodeId, SessionId, Tokens } from "../engine/ids";
import type {
  AttachmentRef,
  LedgerNode,
  NodeKind,
  NodeMetadata,
  SessionMeta,
} from "../engine/types";
import type { NewNode } from "../store/append-inputs";
import type { LedgerWrites } from "../store/ledger-writes";
import type { StreamLeases } from "../store/stream-leases";
import type { ReadsRef } from "../engine/reads-ref";

export interface TurnWriterDeps {
  /** The chain writes and the streaming reply's lease writes; nothing else of the store. */
  readonly store: Pick<LedgerWrites, "appendNode" | "openTurn" | "openReply"> &
    Pick<StreamLeases, "stampReads" | "appendStreaming" | "seal" | "sealAppending">;
  readonly bus: EventBus;
  readonly count: (text: string) => Tokens;
  /** How long a streaming reply's lease lasts between renewals. */
  readonly leaseMs: number;
}

/**
 * Performs every chain write a turn makes and alone applies the turn's head policy
 * (compaction.md §5). A spawned sub-agent turn gets a writer with `advanceHead = false`, so
 * nothing it writes — branch root, placeholder, reply, seal, error — can move HEAD.
 */
export class TurnWriter {
  constructor(
    private readonly deps: TurnWriterDeps,
    readonly sessionId: SessionId,
    readonly advanceHead: boolean,
  ) {}

  /** The same turn's policy, for the side branch of a spawned sub-agent. */
  spawned(): TurnWriter {
    return new TurnWriter(this.deps, this.sessionId, false);
  }

  /** A user node, e.g. the branch root of a spawned sub-agent (`callerId` = its caller). */
  async appendUser(
    predecessorId: NodeId,
    content: string,
    options: { callerId?: NodeId | null } = {},
  ): Promise<LedgerNode> {
    return this.append({
      predecessorId,
      kind: "user",
      content,
      status: "complete",
      tokenCount: this.deps.count(content),
      callerId: options.callerId ?? null,
    });
  }

  /**
   * A turn's first write: the user node and its streaming reply placeholder in one
   * transaction, refused (`turn_in_progress`) while another reply streams and (`conflict`)
   * when HEAD moved since the turn was planned.
   */
  async openTurn(
    predecessorId: NodeId,
    content: string,
    options: {
      forkMovesHead: boolean;
      expectedHeadId?: NodeId | null;
      /** The predecessor's kind as the turn read it: at HEAD, not read again (a CAS). */
      predecessorKind?: NodeKind;
      replyMetadata: NodeMetadata;
      /** The content's tokens when the caller counted them already (with this model). */
      tokenCount?: Tokens;
      /** The attachments the user node carries (metadata) and claims (same transaction). */
      attachments?: readonly AttachmentRef[];
    },
  ): Promise<{ user: LedgerNode; reply: LedgerNode; meta: SessionMeta }> {
    const result = await this.deps.store.openTurn({
      predecessorId,
      kind: "user",
      content,
      status: "complete",
      tokenCount: options.tokenCount ?? this.deps.count(content),
      sessionId: this.sessionId,
      advanceHead: this.advanceHead,
      ...(options.attachments && options.attachments.length > 0
        ? {
            metadata: { attachments: options.attachments },
            attachmentIds: options.attachments.map((a) => a.id),
          }
        : {}),
      forkMovesHead: options.forkMovesHead,
      ...(options.expectedHeadId !== undefined ? { expectedHeadId: options.expectedHeadId } : {}),
      ...(options.predecessorKind !== undefined
        ? { predecessorKind: options.predecessorKind }
        : {}),
      placeholder: { metadata: options.replyMetadata, leaseMs: this.deps.leaseMs },
    });
    const reply = result.placeholder;
    return { user: result.node, reply, meta: result.meta };
  }

  /**
   * Stamps the reply's provenance once its prompt is rendered: as the reference `ref` when
   * given (it stands for exactly `reads`, [R134]), else the explicit list.
   */
  stampReads(nodeId: NodeId, reads: readonly NodeId[], ref?: ReadsRef): Promise<void> {
    return this.deps.store.stampReads(this.sessionId, nodeId, ref ?? reads);
  }

  /** A complete assistant node, e.g. the tool call of a manual `/task` run. */
  async appendAssistant(
    predecessorId: NodeId | "head",
    content: string,
    metadata: NodeMetadata,
  ): Promise<LedgerNode> {
    return this.append({
      predecessorId,
      kind: "assistant",
      content,
      status: "complete",
      tokenCount: this.deps.count(content),
      metadata,
    });
  }

  async appendTool(
    predecessorId: NodeId,
    content: string,
    options: { callerId: NodeId; toolCallId: string; reads?: readonly NodeId[] },
  ): Promise<LedgerNode> {
    return this.append({
      predecessorId,
      kind: "tool",
      content,
      status: "complete",
      tokenCount: this.deps.count(content),
      callerId: options.callerId,
      metadata: { tool_call_id: options.toolCallId },
      ...(options.reads ? { reads: options.reads } : {}),
    });
  }

  /**
   * Opens the streaming reply placeholder (its text is filled in batches, then sealed) and
   * answers the session meta it was claimed under.
   */
  async openReply(
    predecessorId: NodeId,
    options: {
      reads: readonly NodeId[];
      /** Stores `reads` as this reference to their rendering ([R134]). */
      readsRef?: ReadsRef | undefined;
      metadata: NodeMetadata;
      callerId?: NodeId | null;
      /** A retry: the reply itself is the fork HEAD follows, and it must run alone. */
      forkMovesHead?: boolean;
      exclusive?: boolean;
    },
  ): Promise<{ reply: LedgerNode; meta: SessionMeta }> {
    const result = await this.deps.store.openReply({
      ...(options.forkMovesHead ? { forkMovesHead: true } : {}),
      ...(options.exclusive ? { exclusive: true } : {}),
      sessionId: this.sessionId,
      advanceHead: this.advanceHead,
      predecessorId,
      kind: "assistant",
      content: "",
      status: "streaming",
      tokenCount: this.deps.count(""),
      reads: options.reads,
      ...(options.readsRef ? { readsRef: options.readsRef } : {}),
      metadata: options.metadata,
      callerId: options.callerId ?? null,
      leaseMs: this.deps.leaseMs,
    });
    return { reply: result.node, meta: result.meta };
  }

  /** Appends the text streamed since the previous fill (empty: renews the lease only). */
  fill(nodeId: NodeId, chunk: string): Promise<void> {
    return this.deps.store.appendStreaming(this.sessionId, nodeId, chunk, this.deps.leaseMs);
  }

  /**
   * Seals the reply with its whole text `content`. `stored` is how much of it (UTF-16 units)
   * the fills are known to have stored: only the rest travels ([R133]). Without it, or when
   * the stored text is not that prefix after all, the whole text is written once — the sealed
   * content is always exactly `content`. `reads` are written only when given (when they
   * differ from the stamp).
   */
  async seal(
    nodeId: NodeId,
    status: "complete" | "interrupted" | "error",
    content: string,
    metadata: NodeMetadata,
    options: {
      reads?: readonly NodeId[];
      readsRef?: ReadsRef | undefined;
      stored?: number | null;
      /** The reads the row holds once sealed, when known: not read back ([R139]). */
      known?: readonly NodeId[];
    } = {},
  ): Promise<LedgerNode> {
    const rest = {
      status,
      tokenCount: this.deps.count(content),
      metadata,
      ...(options.reads ? { reads: options.reads } : {}),
      ...(options.reads && options.readsRef ? { readsRef: options.readsRef } : {}),
      ...(options.known ? { known: options.known } : {}),
    };
    const stored = options.stored ?? null;
    let node: LedgerNode | null = null;
    if (stored !== null && stored > 0 && stored <= content.length) {
      const prefix = content.slice(0, stored);
      node = await this.deps.store.sealAppending(this.sessionId, nodeId, {
        ...rest,
        tail: content.slice(stored),
        // Code points: what both databases' length() counts.
        after: codePoints(prefix),
      });
    }
    // The store announces the seal (`turn_finished`) once it has committed.
    node ??= await this.deps.store.seal(this.sessionId, nodeId, { ...rest, content });
    return node;
  }

  /** A user-visible notice on the session channel (every tab shows it). */
  publishNotice(code: NoticeCode, message: string, nodeId: NodeId | null): void {
    this.deps.bus.publish(this.sessionId, { type: "notice", code, message, nodeId });
  }

  publishDelta(id: NodeId, text: string, offset: number): void {
    this.deps.bus.publish(this.sessionId, { type: "delta", id, text, offset });
  }

  private async append(input: Omit<NewNode, "sessionId" | "advanceHead">): Promise<LedgerNode> {
    const result = await this.deps.store.appendNode({
      ...input,
      sessionId: this.sessionId,
      advanceHead: this.advanceHead,
    });
    return result.node;
  }
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
