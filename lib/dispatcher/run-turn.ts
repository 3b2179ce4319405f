import { isEngineError } from "../engine/errors";
import type { NodeId } from "../engine/ids";
import type { LedgerNode, NodeMetadata, SessionMeta, SessionRecord } from "../engine/types";
import { overflowDecision } from "../engine/overflow-decision";
import { leanNode, type WireNode } from "../engine/wire-node";
import { isProviderError } from "../llm/provider-error";
import { logProviderError, userMessage } from "../llm/user-message";
import type { ChatProvider, FinishReason, ToolSpec, Usage } from "../llm/types";
import type { AttachmentStore } from "../store/attachments";
import type { SessionRows } from "../store/session-rows";
import { activeSummaryIds } from "../engine/active-summaries";
import { readsRefOfRendering, referable, type ReadsRef } from "../engine/reads-ref";
import type { TurnCompaction } from "../compaction/turn-compaction";
import { loadView, type HeadView, type ViewReads } from "../view/head-view";
import { toWire, type Wire } from "../view/wire";
import { EarlyReply } from "./early-reply";
import { StreamBuffer } from "./stream-buffer";
import { attachFiles } from "../view/attach-files";
import { visionFor } from "./attachments";
import type { TurnWriter } from "./turn-writer";

/**
 * What a turn streams to its caller (the SSE form of POST .../turns). Nodes are lean
 * ([R115]): a reply's `reads` hold its whole prompt, which the stream never needs to carry.
 */
export type TurnEvent =
  | { readonly type: "node"; readonly node: WireNode }
  | { readonly type: "delta"; readonly id: NodeId; readonly text: string; readonly offset: number }
  | { readonly type: "done"; readonly node: WireNode }
  | {
      readonly type: "error";
      readonly code: string;
      readonly message: string;
      readonly node?: WireNode;
    };

export interface ReplyOptions {
  /** What a reply reads: its view, the session after a compaction, its files. */
  readonly store: ViewReads & Pick<SessionRows, "getSession"> & Pick<AttachmentStore, "blobs">;
  readonly provider: ChatProvider;
  readonly writer: TurnWriter;
  readonly session: SessionRecord;
  readonly model: string;
  /** The node the reply answers (a user turn or a tool result). */
  readonly parentId: NodeId;
  readonly callerId?: NodeId | null;
  readonly signal?: AbortSignal | undefined;
  readonly compaction?: TurnCompaction | undefined;
  readonly flushMs: number;
  readonly keepAliveMs: number;
  /** Auto-compaction already ran for this turn: an overflow then ends the turn ([R58]). */
  readonly compactedThisTurn?: boolean;
  /**
   * The placeholder, when the turn opened it together with the user node, and the session
   * meta it was claimed under (the rendering must use that meta's active summary).
   */
  readonly opened?: {
    readonly reply: LedgerNode;
    readonly meta: SessionMeta;
    /** The view of `parentId` under that meta, when the turn has it already. */
    readonly view?: HeadView;
  };
  /** The view of `parentId` under `session.meta`, when the turn loaded it already. */
  readonly view?: HeadView;
  /** A retry opens its fork with the reply itself. */
  readonly forkMovesHead?: boolean;
  readonly exclusive?: boolean;
  /** The functions offered to the model (the agent loop runs the calls it makes). */
  readonly tools?: readonly ToolSpec[];
  /**
   * A prompt fixed in advance (a replay, [R230]): sent as it is, its ids the reply's `reads`;
   * nothing is rendered from the ledger and an overflow is not compacted away.
   */
  readonly prompt?: Wire;
  /** More metadata for the reply, from its placeholder on (a replay's `replay_of`…). */
  readonly metadata?: NodeMetadata;
  /**
   * The model call the turn started while its claim committed ([R292]): taken when the
   * prompt the reply sends is the one it sent, else aborted.
   */
  readonly early?: EarlyReply | undefined;
}

const OVERFLOW_NO_COMPACTION =
  "The conversation no longer fits the model's context window. Start a branch from an " +
  "earlier message, run /compact, or switch to a model with a larger window.";

const GIVE_UP_AFTER_FAILED_COMPACTION =
  "The conversation no longer fits the model's context window and compaction could not " +
  "make room. Start a branch from an earlier message or switch to a model with a larger window.";

/**
 * Streams one reply under `parentId`: renders what the model reads, opens the placeholder
 * (stamping the rendering's ids as `reads`), streams, and seals it once — `complete`,
 * `interrupted` (the user's Stop) or `error` (partial text kept). A context overflow before
 * the first token triggers one reactive compaction and one retry.
 */
export async function* streamReply(options: ReplyOptions): AsyncGenerator<TurnEvent, LedgerNode> {
  // The model call under way before the claim ([R292]), by the turn or below: aborted
  // however the reply ends, unless it took it.
  const early: { reply?: EarlyReply | undefined } = { reply: options.early };
  try {
    return yield* replySteps(options, early);
  } finally {
    early.reply?.cancel();
  }
}

async function* replySteps(
  options: ReplyOptions,
  early: { reply?: EarlyReply | undefined },
): AsyncGenerator<TurnEvent, LedgerNode> {
  const { store, writer, session, parentId } = options;
  // What the model reads, as sent: the prompt and the ids that are its `reads`.
  let wire: Wire;
  let reply: LedgerNode;
  // The `reads` stamp runs beside the model call: between the durable user node and the
  // first token stands only the prompt ([R118]). Fills wait for it; so does the seal.
  let stamping: Promise<void> = Promise.resolve();
  // What the reply's `reads` are stored as: a reference to the rendering they are, when
  // every node it reads is final ([R134]); else (undefined) the explicit list.
  let readsRef: ReadsRef | undefined;
  // The reads the row holds once `stamping` settled (null: unknown, the stamp failed). The
  // seal writes `reads` only when the prompt sent differs from them: once a reply ([R133]).
  let stampedReads: readonly NodeId[] | null = null;
  const stamp = (id: NodeId, ids: readonly NodeId[]) => {
    stampedReads = ids;
    stamping = writer.stampReads(id, ids, readsRef);
    // Observed here so a failure is not "unhandled"; the fills and the seal still see it.
    stamping.catch(() => {
      stampedReads = null;
    });
  };
  // A turn renders with the meta it was claimed under, not the one read when it started:
  // another tab or instance may have compacted meanwhile ([R84]).
  if (options.prompt) {
    wire = options.prompt;
    const opened = await writer.openReply(parentId, {
      reads: wire.ids,
      metadata: { model: options.model, ...options.metadata },
      callerId: options.callerId ?? null,
    });
    reply = opened.reply;
    stampedReads = wire.ids;
  } else if (options.opened) {
    // The placeholder was opened with the user node (one transaction); stamp its reads now.
    const claimed = { ...session, meta: options.opened.meta };
    const view = options.opened.view ?? (await loadView(store, claimed, parentId));
    wire = toWire(view.rendering);
    readsRef = refOf(view);
    stamp(options.opened.reply.id, wire.ids);
    reply = { ...options.opened.reply, reads: wire.ids };
  } else {
    // Rendered before the claim (so the placeholder carries its reads at once), and again
    // only in the rare case that the claim saw another active summary.
    const view = options.view ?? (await loadView(store, session, parentId));
    wire = toWire(view.rendering);
    readsRef = refOf(view);
    // The prompt is known: it goes out while the placeholder's claim commits ([R292]).
    early.reply ??= await EarlyReply.start(wire, options.signal, (sent, signal) =>
      requestReply({ ...options, signal }, sent),
    );
    const opened = await writer.openReply(parentId, {
      reads: wire.ids,
      readsRef,
      metadata: { model: options.model },
      callerId: options.callerId ?? null,
      ...(options.forkMovesHead ? { forkMovesHead: true } : {}),
      ...(options.exclusive ? { exclusive: true } : {}),
    });
    reply = opened.reply;
    stampedReads = wire.ids;
    if (!sameIds(activeSummaryIds(opened.meta), activeSummaryIds(session.meta))) {
      const claimedView = await loadView(store, { ...session, meta: opened.meta }, parentId);
      wire = toWire(claimedView.rendering);
      readsRef = refOf(claimedView);
      stamp(reply.id, wire.ids);
      reply = { ...reply, reads: wire.ids };
    }
  }
  yield { type: "node", node: leanNode(reply) };

  const buffer = new StreamBuffer({
    flushMs: options.flushMs,
    keepAliveMs: options.keepAliveMs,
    write: async (chunk) => {
      await stamping;
      await writer.fill(reply.id, chunk);
    },
    onFlush: (chunk, offset) => writer.publishDelta(reply.id, chunk, offset),
  });
  buffer.start();

  let finish: FinishReason | undefined;
  let usage: Usage | undefined;
  let toolCalls: NodeMetadata["tool_calls"];
  let failure: { code: string; message: string } | undefined;
  let retried = false;
  let overflowMessage: string | undefined;
  // The request already under way, if its prompt is this one; none after a retry.
  let started = early.reply?.take(wire.messages) ?? null;
  // The first token's time, as the early request saw it arrive; else when it is read.
  const tokenAt =
    started === null
      ? () => performance.now()
      : () => early.reply?.firstTokenAt ?? performance.now();
  // Time to the first token and in all, from the moment the prompt is sent ([R236]).
  const sentAt = started !== null && early.reply ? early.reply.sentAt : performance.now();
  let firstTokenAt: number | undefined;
  try {
    for (;;) {
      try {
        const events = started ?? (await requestReply(options, wire));
        started = null;
        for await (const event of events) {
          switch (event.type) {
            case "text":
              {
                firstTokenAt ??= tokenAt();
                const offset = buffer.content.length;
                buffer.append(event.text);
                yield { type: "delta", id: reply.id, text: event.text, offset };
                break;
              }
              break;
            case "tool_calls":
              firstTokenAt ??= tokenAt();
              toolCalls = event.calls;
              break;
            case "usage":
              usage = event.usage;
              break;
            case "finish":
              finish = event.reason;
              break;
            case "tool_call_delta":
            case "retry":
              break;
          }
        }
        break;
      } catch (e) {
        if (isProviderError(e) && e.code === "provider_overflow" && buffer.content === "") {
          // Issue 5 / [R58]: compact and retry once; a turn compacts at most once.
          const decision = overflowDecision({
            compactedThisTurn: options.compactedThisTurn === true || retried,
            retried,
          });
          if (decision.kind === "give_up" || !options.compaction || options.prompt) {
            overflowMessage = decision.kind === "give_up" ? decision.message : undefined;
            throw e;
          }
          retried = true;
          const fresh = await store.getSession(session.id);
          if (await options.compaction.onOverflow(fresh, parentId)) {
            const retryView = await loadView(store, await store.getSession(session.id), parentId);
            wire = toWire(retryView.rendering);
            readsRef = refOf(retryView);
            continue;
          }
          overflowMessage = GIVE_UP_AFTER_FAILED_COMPACTION;
        }
        throw e;
      }
    }
  } catch (e) {
    if (isProviderError(e)) {
      logProviderError("turn", e);
      failure = {
        code: e.code,
        message:
          e.code === "provider_overflow"
            ? (overflowMessage ?? OVERFLOW_NO_COMPACTION)
            : userMessage(e),
      };
      if (e.partialText && buffer.content === "") buffer.append(e.partialText);
    } else if (isEngineError(e)) {
      failure = { code: e.code, message: e.message };
    } else {
      console.error("[spindle] turn failed", e);
      failure = { code: "internal", message: "The reply failed on the server." };
    }
  } finally {
    await buffer.stop();
  }

  const status = failure ? "error" : finish === "aborted" ? "interrupted" : "complete";
  const totalMs = Math.round(performance.now() - sentAt);
  const metadata: NodeMetadata = {
    ...options.metadata,
    model: options.model,
    timing: {
      ...(firstTokenAt === undefined ? {} : { firstTokenMs: Math.round(firstTokenAt - sentAt) }),
      totalMs,
    },
    ...(finish ? { finish_reason: finish } : {}),
    ...(usage
      ? {
          usage: {
            promptTokens: usage.promptTokens,
            completionTokens: usage.completionTokens,
            ...(usage.cachedTokens === undefined ? {} : { cachedTokens: usage.cachedTokens }),
          },
        }
      : {}),
    ...(toolCalls && toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(failure ? { error: failure } : {}),
    ...(retried && !failure ? { reactive_compaction: true } : {}),
  };
  // The stamp has to have finished (or failed); the seal writes the reads only when they are
  // not what the row holds already (a reactive retry re-rendered, or the stamp failed).
  await stamping.catch(() => undefined);
  const sealed = await writer.seal(reply.id, status, buffer.content, metadata, {
    ...(sameIds(stampedReads, wire.ids) ? {} : { reads: wire.ids, readsRef }),
    stored: buffer.stored,
    // Stamped or written just now, the row's reads are the prompt sent: not read back.
    known: wire.ids,
  });
  if (failure) {
    yield { type: "error", code: failure.code, message: failure.message, node: leanNode(sealed) };
  } else {
    yield { type: "done", node: leanNode(sealed) };
  }
  return sealed;
}

/** The model call for a prompt: its files read from their blobs (R266), then sent. */
export async function requestReply(
  options: Pick<ReplyOptions, "store" | "provider" | "session" | "model" | "tools" | "signal">,
  wire: Wire,
) {
  const messages = await attachFiles(
    wire.messages,
    (hashes) => options.store.blobs(options.session.id, hashes),
    visionFor(options.session, options.model, options.provider.kind === "offline"),
  );
  return options.provider.stream({
    messages,
    model: options.model,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

function sameIds(a: readonly NodeId[] | null, b: readonly NodeId[]): boolean {
  return a !== null && a.length === b.length && a.every((id, i) => id === b[i]);
}

/** The reference a reply rendered from `view` stores for its `reads` ([R134]), if it may. */
function refOf(view: HeadView): ReadsRef | undefined {
  if (!referable(view.spine)) return undefined;
  return readsRefOfRendering(view.rendering, view.activeSummaries);
}
