import { randomUUID } from "node:crypto";
import type { Config } from "../config/env";
import { contextTokens, MESSAGE_OVERHEAD_TOKENS } from "../engine/context-tokens";
import { buildGraph, type GraphView } from "../engine/build-graph";
import { createLedgerIndex } from "../engine/ledger-index";
import { findBranchTop, planDeleteBranch } from "../engine/plan-delete-branch";
import { activeSummaryIds } from "../engine/active-summaries";
import { checkoutTarget } from "../engine/checkout-target";
import { EngineError } from "../engine/errors";
import { tokens, type NodeId, type SessionId, type Tokens } from "../engine/ids";
import { planTurn, type TurnMode } from "../engine/plan-turn";
import type { RenderedContext } from "../engine/render-context";
import { rewindTarget } from "../engine/rewind-target";
import type { LedgerNode, NodeKind, SessionRecord } from "../engine/types";
import { validateContent } from "../engine/validate-content";
import { leanNode } from "../engine/wire-node";
import type { EventBus } from "../events/session-event";
import type { Providers } from "../llm/provider-factory";
import type { AttachmentStore, StoredAttachment } from "../store/attachments";
import type { LedgerReads } from "../store/ledger-reads";
import type { LedgerWrites } from "../store/ledger-writes";
import type { SessionRows } from "../store/session-rows";
import type { StreamLeases } from "../store/stream-leases";
import type { TurnReads } from "../store/turn-reads";
import type { TurnCompaction } from "../compaction/turn-compaction";
import { loadRendering, viewBelow, viewOfTurn } from "../view/head-view";
import { loadInnerSummaries } from "../engine/summary-turns";
import { EarlyReply, promptBelow } from "./early-reply";
import { requestReply, streamReply, type ReplyOptions, type TurnEvent } from "./run-turn";
import {
  runSubAgent,
  toolRounds,
  type AgentContext,
  type AgentDeps,
  type SubAgentResult,
} from "./agent-loop";
import { AgentLoops } from "./agent-loops";
import { AGENT_TOOLS, TASK_TOOL } from "./agent-tools";
import { lookupModel } from "../llm/model-registry";
import type { ToolSpec } from "../llm/types";
import type { SessionTitler } from "./session-titler";
import { TurnWriter, type TurnWriterDeps } from "./turn-writer";
import {
  replayPrompt,
  summariesRead,
  summariesToExpand,
  type ReplayExpand,
} from "../engine/replay-prompt";
import { windowFor } from "../compaction/model-window";
import { withExpansion } from "../view/expansion-nodes";
import { toWire } from "../view/wire";
import { attachmentsForTurn, uploadAttachment, visionFor } from "./attachments";
import { DEFAULT_ATTACHMENT_CAPS, DEFAULT_PDF_LIMITS, type AttachmentCaps } from "../files/limits";
import { createPdfReader } from "../files/pdf-reader";
import type { PdfReading } from "../files/read-file";

/**
 * The parts of the store the dispatcher uses: the session rows and the ledger's reads, the
 * explicit HEAD moves and branch delete, the lease probes, the uploads — and what it hands
 * the turn writer, the replies and the agent loops.
 */
export type DispatcherStore = Pick<SessionRows, "getSession"> &
  Pick<LedgerReads, "node" | "nodes" | "nodesById" | "spine" | "spineOf"> &
  TurnReads &
  Pick<LedgerWrites, "setHead" | "removeNodes"> &
  Pick<StreamLeases, "hasLiveStream" | "sealOrphans"> &
  Pick<AttachmentStore, "addAttachment" | "attachmentsById"> &
  TurnWriterDeps["store"] &
  AgentDeps["store"];

export interface DispatcherDeps {
  readonly store: DispatcherStore;
  readonly bus: EventBus;
  readonly providers: Providers;
  readonly config: Pick<Config, "maxMessageChars"> &
    Partial<Pick<Config, "contextWindow" | "maxAttachmentBytes" | "maxMessageAttachmentBytes">>;
  readonly count: (text: string, model?: string) => Tokens;
  readonly compaction?: TurnCompaction;
  /** The agent loops this process runs (shared with the compactor). */
  readonly loops?: AgentLoops;
  /** Streaming replies are written at most this often. */
  readonly flushMs?: number;
  readonly keepAliveMs?: number;
  readonly leaseMs?: number;
  /** Titles a session after its first reply; told when each turn ends. */
  readonly titler?: Pick<SessionTitler, "afterReply">;
  /** How uploaded PDFs are read (R277); by default under the documented limits. */
  readonly pdf?: PdfReading;
}

export interface TurnInput {
  readonly sessionId: SessionId;
  readonly mode: TurnMode;
  readonly content?: string | undefined;
  readonly parentId?: NodeId | undefined;
  readonly targetId?: NodeId | undefined;
  /** This turn's model instead of the session's ("Retry with…"); the setting is unchanged. */
  readonly model?: string | undefined;
  /**
   * Several models at once ([R234]): one user node and one sibling reply per model, streamed
   * concurrently; HEAD follows the first. A `send` only, without `model`.
   */
  readonly models?: readonly string[] | undefined;
  /** Uploaded attachments sent with the message (send and edit only). */
  readonly attachments?: readonly string[] | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Which sessions the model's `send_message` may reach (the Workspace's ownership check). */
  readonly mayReach?: ((id: SessionId) => Promise<boolean>) | undefined;
}

/** A replay of one reply ([R230]–[R233]). */
export interface ReplayInput {
  readonly sessionId: SessionId;
  /** The reply whose prompt is sent again. */
  readonly nodeId: NodeId;
  /** Default: the model that wrote the reply. */
  readonly model?: string | undefined;
  /** Summaries of the prompt rendered as their originals (`"all"`: every one). */
  readonly expand?: ReplayExpand | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface SpawnInput {
  readonly sessionId: SessionId;
  readonly prompt: string;
  readonly callerId?: NodeId | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly mayReach?: ((id: SessionId) => Promise<boolean>) | undefined;
}

export interface SpawnResult {
  readonly caller: LedgerNode;
  /** The first node the task wrote; its `callerId` is the caller. */
  readonly branchRootId: NodeId;
  readonly result: LedgerNode;
}

export interface SendInput {
  readonly sourceSessionId: SessionId;
  readonly targetSessionId: SessionId;
  readonly content: string;
  readonly signal?: AbortSignal;
}

/** A branch delete's answer: the session as it left it, and the ids it removed. */
export type BranchDeleted = SessionRecord & { readonly removed: readonly NodeId[] };

export interface TurnResult {
  readonly user: LedgerNode | null;
  readonly reply: LedgerNode;
  /** A turn of several models: every reply, in the order the models were named. */
  readonly replies?: readonly LedgerNode[];
}

/**
 * The operations of product.md §3, shared by route handlers, server actions and tests.
 * Validation happens before the first write, so a rejected request leaves nothing behind.
 */
export class Dispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  get store(): DispatcherStore {
    return this.deps.store;
  }

  /**
   * The model a turn talks to: the one it names ([R203]), else the session's `/model`
   * setting, else the server's.
   */
  modelOf(session: SessionRecord, override?: string): string {
    // The offline model has no other models; a stored name must not be recorded as if used.
    if (this.deps.providers.chat.kind === "offline") return this.deps.providers.chat.model;
    return override ?? session.meta.settings?.model ?? this.deps.providers.chat.model;
  }

  writer(sessionId: SessionId, advanceHead: boolean, model?: string): TurnWriter {
    return new TurnWriter(
      {
        store: this.deps.store,
        bus: this.deps.bus,
        count: (text) => this.deps.count(text, model),
        leaseMs: this.deps.leaseMs ?? 30_000,
      },
      sessionId,
      advanceHead,
    );
  }

  /**
   * A turn (send, retry or edit) as a stream of events: the user node, the reply
   * placeholder, deltas, then `done` or `error`. HEAD follows the reply.
   */
  async *turn(input: TurnInput): AsyncGenerator<TurnEvent, TurnResult> {
    // The reply's model call, when the turn started it before its claim ([R292]): aborted
    // however the turn ends, unless the reply took it.
    const early: { reply?: EarlyReply } = {};
    try {
      return yield* this.turnSteps(input, early);
    } finally {
      early.reply?.cancel();
    }
  }

  private async *turnSteps(
    input: TurnInput,
    early: { reply?: EarlyReply },
  ): AsyncGenerator<TurnEvent, TurnResult> {
    const { store } = this.deps;
    // One load for the whole turn: the session, its leases, the nodes it names and HEAD,
    // the active summaries; planning, the budget check and the prompt all read from it.
    const state = await store.loadTurn(input.sessionId, [input.parentId, input.targetId]);
    const { session } = state;
    this.refuseDuringLoop(session.id);
    // A message may be only its attachments (a screenshot, no words).
    const onlyFiles = (input.attachments?.length ?? 0) > 0 && (input.content ?? "").trim() === "";
    const content =
      input.mode === "retry"
        ? undefined
        : onlyFiles
          ? ""
          : validateContent(input.content ?? "", this.deps.config.maxMessageChars);
    const several = input.models !== undefined && input.models.length > 0;
    if (several && (input.mode !== "send" || input.model !== undefined)) {
      throw new EngineError(
        "invalid_request",
        "Several models answer a new message only (mode send), and `models` replaces `model`.",
      );
    }
    const plan = planTurn({
      sessionId: session.id,
      mode: input.mode,
      headId: session.headId,
      parentId: input.parentId,
      targetId: input.targetId,
      advanceHead: true,
      turnInProgress: state.streaming.length > 0,
      getNode: (id) => state.nodes.get(id),
    });
    const model = this.modelOf(session, input.models?.[0] ?? input.model);
    const writer = this.writer(session.id, true, model);
    const attachmentIds = input.attachments ?? [];
    if (attachmentIds.length > 0 && !plan.writesUserNode) {
      throw new EngineError("invalid_request", "Only a message that is sent carries attachments.");
    }
    const attachments =
      attachmentIds.length === 0
        ? []
        : await attachmentsForTurn(store, {
            sessionId: session.id,
            ids: attachmentIds,
            caps: this.attachmentCaps,
            vision: visionFor(session, model, this.deps.providers.chat.kind === "offline"),
            model,
          });

    const agent = this.agentContext(session, model, writer, input.signal, input.mayReach);
    let user: LedgerNode | null = null;
    let compactedThisTurn = false;
    let opened: ReplyOptions["opened"];
    let replyParent = plan.predecessorId;
    if (plan.writesUserNode && content !== undefined) {
      // Counted once: the budget check and the user node share it. A node's attachments
      // are part of its cost (R266): what they add to every prompt that reads the node.
      const userTokens = tokens(
        this.deps.count(content, model) + attachments.reduce((n, a) => n + a.tokens, 0),
      );
      // One spine query for the whole turn ([R118]): the budget check reads it, and the
      // prompt is it plus the user node, unless the active summary changed meanwhile.
      const view = await viewOfTurn(store, state, plan.predecessorId);
      compactedThisTurn =
        (await this.deps.compaction?.beforeTurn(
          session,
          plan.predecessorId,
          userTokens + MESSAGE_OVERHEAD_TOKENS,
          view,
        )) ?? false;
      if (!compactedThisTurn && !several && attachments.length === 0) {
        // The reply's prompt is known now: send it while the claim commits.
        early.reply = await EarlyReply.start(
          promptBelow(view, session, content, userTokens),
          input.signal,
          (wire, signal) =>
            requestReply(
              {
                ...this.streaming(),
                session,
                model,
                signal,
                ...(agent.tools ? { tools: agent.tools } : {}),
              },
              wire,
            ),
        );
      }
      const claim = await writer.openTurn(plan.predecessorId, content, {
        tokenCount: userTokens,
        forkMovesHead: plan.forkMovesHead,
        // A send "at HEAD" (implicitly, or naming HEAD as its parent) depends on where HEAD
        // is: if another tab moved it meanwhile, the turn is refused rather than landing on
        // a branch nobody is looking at. Forks name another anchor and do not care.
        ...(input.mode === "send" &&
        (input.parentId === undefined || input.parentId === session.headId)
          ? {
              expectedHeadId: session.headId,
              // The claim's compare-and-swap on HEAD stands for re-reading this node.
              ...predecessorKindOf(state.nodes.get(plan.predecessorId)),
            }
          : {}),
        replyMetadata: { model },
        ...(attachments.length > 0 ? { attachments } : {}),
      });
      user = claim.user;
      const sameSummary =
        !compactedThisTurn && sameIds(activeSummaryIds(claim.meta), activeSummaryIds(session.meta));
      opened = {
        reply: claim.reply,
        meta: claim.meta,
        ...(sameSummary ? { view: viewBelow(view, user) } : {}),
      };
      yield { type: "node", node: leanNode(user) };
      replyParent = user.id;
    }
    if (several && user !== null && opened !== undefined) {
      return yield* this.severalReplies(session, input, user, opened, writer, compactedThisTurn);
    }
    // A turn that may call tools holds the session from its first reply to its last.
    const leave = agent.tools ? this.loops.enter(session.id) : () => undefined;
    try {
      const first = yield* streamReply({
        ...this.streaming(),
        writer,
        session,
        model,
        parentId: replyParent,
        signal: input.signal,
        compaction: this.deps.compaction,
        compactedThisTurn,
        early: early.reply,
        ...(opened ? { opened } : {}),
        ...(plan.writesUserNode
          ? {}
          : {
              forkMovesHead: plan.forkMovesHead,
              exclusive: true,
              view: await viewOfTurn(store, state, replyParent),
            }),
        ...(agent.tools ? { tools: agent.tools } : {}),
      });
      // The agent loop: the model's tool calls run and it is asked again with their
      // results; HEAD follows the main chain (caller → tool… → reply).
      agent.compacted.value ||= compactedThisTurn || first.metadata["reactive_compaction"] === true;
      const reply = yield* toolRounds(this.agentDeps(), agent, first);
      // The reply is sealed: titling runs on its own and never delays the turn ([R105]).
      this.deps.titler?.afterReply(session, reply);
      return { user, reply };
    } finally {
      leave();
    }
  }

  /**
   * The replies of a turn of several models ([R234]): the first on the claimed placeholder
   * (HEAD follows it), the others opened head-neutral under the same user node, rendered
   * from the same meta — so every prompt, and every `reads`, is the same. They stream
   * concurrently; their events interleave. No function tools: each reply is one answer.
   */
  private async *severalReplies(
    session: SessionRecord,
    input: TurnInput,
    user: LedgerNode,
    opened: NonNullable<ReplyOptions["opened"]>,
    writer: TurnWriter,
    compactedThisTurn: boolean,
  ): AsyncGenerator<TurnEvent, TurnResult> {
    const claimed = { ...session, meta: opened.meta };
    const common = {
      ...this.streaming(),
      session: claimed,
      parentId: user.id,
      signal: input.signal,
      compaction: this.deps.compaction,
      compactedThisTurn,
    };
    const models = (input.models ?? []).map((m) => this.modelOf(session, m));
    const streams = models.map((model, i) =>
      streamReply({
        ...common,
        model,
        ...(i === 0 ? { writer, opened } : { writer: this.writer(session.id, false, model) }),
      }),
    );
    const replies = yield* interleave(streams);
    const first = replies[0] as LedgerNode;
    this.deps.titler?.afterReply(session, first);
    return { user, reply: first, replies };
  }

  /** The attachment caps of the configuration, or their documented defaults. */
  get attachmentCaps(): AttachmentCaps {
    return {
      maxAttachmentBytes:
        this.deps.config.maxAttachmentBytes ?? DEFAULT_ATTACHMENT_CAPS.maxAttachmentBytes,
      maxMessageAttachmentBytes:
        this.deps.config.maxMessageAttachmentBytes ??
        DEFAULT_ATTACHMENT_CAPS.maxMessageAttachmentBytes,
    };
  }

  /** Stores an upload of `sessionId`, waiting for the turn that sends it (R262). */
  async upload(input: {
    readonly sessionId: SessionId;
    readonly name: string;
    readonly bytes: Uint8Array;
  }): Promise<StoredAttachment> {
    // Its model prices a text file; an upload writes no node, so nothing is sealed here.
    const session = await this.deps.store.getSession(input.sessionId);
    const model = this.modelOf(session);
    return uploadAttachment(this.deps.store, {
      ...input,
      caps: this.attachmentCaps,
      count: (text) => this.deps.count(text, model),
      pdf: this.pdf,
    });
  }

  private ownPdf: PdfReading | undefined;

  private get pdf(): PdfReading {
    if (this.deps.pdf) return this.deps.pdf;
    this.ownPdf ??= {
      read: createPdfReader(DEFAULT_PDF_LIMITS),
      maxTextChars: this.attachmentCaps.maxAttachmentBytes,
    };
    return this.ownPdf;
  }

  private get loops(): AgentLoops {
    return this.deps.loops ?? this.ownLoops;
  }

  private readonly ownLoops = new AgentLoops();

  /** Another turn, a `/task` or a compaction waits while the session's agent loop runs. */
  private refuseDuringLoop(sessionId: SessionId): void {
    if (this.loops.has(sessionId)) {
      throw new EngineError(
        "turn_in_progress",
        "The assistant is still working in this session (running tools); wait for it, or stop it.",
      );
    }
  }

  /**
   * Replays reply `nodeId` (issue 22): its recorded prompt — exactly its `reads`, rendered
   * by the one rule, or with chosen summaries expanded into their originals — is sent again,
   * to `model` or the reply's own, and the answer is a new sibling reply (same predecessor)
   * with `metadata.replay_of`. Every write is head-neutral: HEAD never moves ([R230]).
   * Validation (what the node is, its provenance, the expanded prompt's size) happens before
   * the first write.
   */
  async *replay(input: ReplayInput): AsyncGenerator<TurnEvent, LedgerNode> {
    const { store } = this.deps;
    const session = await this.load(input.sessionId);
    const original = await store.node(session.id, input.nodeId);
    if (original.kind !== "assistant") {
      throw new EngineError(
        "not_a_reply",
        `Node ${original.id} is a ${original.kind}; only a model's reply can be replayed.`,
      );
    }
    if (original.status === "streaming") throw new EngineError("reply_streaming");
    if (original.predecessorId === null) throw new EngineError("invalid_ledger");
    const readNodes = await store.nodesById(session.id, original.reads, { reads: false });
    const known = new Map(readNodes.map((n) => [n.id, n] as const));
    const chosen = summariesToExpand(
      summariesRead(original.reads, (id) => known.get(id)),
      input.expand,
    );
    const getNode =
      chosen.length > 0
        ? await withExpansion(store, session.id, readNodes, chosen)
        : (id: NodeId) => known.get(id);
    const prompt = replayPrompt(original.reads, getNode, input.expand);
    const model = this.modelOf(
      session,
      input.model ??
        (typeof original.metadata.model === "string" ? original.metadata.model : undefined),
    );
    if (prompt.expanded.length > 0) {
      // The counterfactual prompt is longer than anything the session sent: it must fit the
      // model it goes to, or it is refused before anything is written ([R232]).
      const needed = contextTokens(prompt.rendering.messages);
      const window = windowFor({
        settings: session.meta.settings,
        sessionModel: this.modelOf(session),
        model,
        serverWindow: this.deps.config.contextWindow,
      });
      if (needed > window) {
        throw new EngineError(
          "prompt_too_large",
          `Without its summaries this prompt takes about ${needed} tokens, more than ${model}'s ` +
            `context window of ${window}: it cannot be replayed expanded.`,
        );
      }
    }
    const tools = this.toolsFor(session, model);
    return yield* streamReply({
      ...this.streaming(),
      writer: this.writer(session.id, false, model),
      session,
      model,
      parentId: original.predecessorId,
      signal: input.signal,
      prompt: toWire(prompt.rendering),
      metadata: {
        replay_of: original.id,
        ...(prompt.expanded.length > 0
          ? { expanded: prompt.expanded, expanded_turns: prompt.expandedTurns }
          : {}),
      },
      ...(tools ? { tools } : {}),
    });
  }

  /** Runs a turn to its end (the `"stream": false` form). */
  async runTurn(input: TurnInput): Promise<TurnResult> {
    const it = this.turn(input);
    for (;;) {
      const step = await it.next();
      if (step.done) return step.value;
    }
  }

  /**
   * A same-session sub-agent turn (compaction.md §5). Its branch opens from the caller node
   * and every write in it is head-neutral; the result returns to the caller as a `tool`
   * node. Without `callerId` this is the manual function-run of `/task`: an assistant
   * tool-call node is written at HEAD first (a user-initiated move).
   */
  async spawn(input: SpawnInput): Promise<SpawnResult> {
    const { store } = this.deps;
    const prompt = validateContent(input.prompt, this.deps.config.maxMessageChars);
    const session = await this.load(input.sessionId);
    this.refuseDuringLoop(session.id);
    const model = this.modelOf(session);
    const outer = this.writer(session.id, true, model);
    let caller: LedgerNode;
    let toolCallId: string;
    if (input.callerId) {
      caller = await store.node(session.id, input.callerId);
      const call = caller.metadata.tool_calls?.find((c) => c.name === TASK_TOOL);
      if (caller.kind !== "assistant" || !call) {
        throw new EngineError(
          "invalid_target",
          `Node ${caller.id} is not an assistant turn that called the ${TASK_TOOL} tool.`,
        );
      }
      toolCallId = call.id;
    } else {
      if (await store.hasLiveStream(session.id)) {
        throw new EngineError("turn_in_progress");
      }
      toolCallId = `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      caller = await outer.appendAssistant("head", "", {
        tool_calls: [{ id: toolCallId, name: TASK_TOOL, arguments: JSON.stringify({ prompt }) }],
        manual: true,
      });
    }
    // Whatever happens on the side branch, the caller's tool call gets its result: an
    // unanswered call would make every later prompt of this branch invalid for the provider.
    const leave = this.loops.enter(session.id);
    let sub: SubAgentResult;
    try {
      sub = await runSubAgent(
        this.agentDeps(),
        this.agentContext(session, model, outer, input.signal, input.mayReach),
        caller,
        prompt,
      );
    } finally {
      leave();
    }
    const result = await outer.appendTool(caller.id, sub.text, {
      callerId: caller.id,
      toolCallId,
      reads: sub.replyId ? [sub.replyId] : [],
    });
    return { caller, branchRootId: sub.branchRootId ?? result.id, result };
  }

  /** Whether the session's model is offered the function tools (settings, else registry). */
  toolsFor(
    session: SessionRecord,
    model: string = this.modelOf(session),
  ): readonly ToolSpec[] | undefined {
    if (this.deps.providers.chat.kind === "offline") return undefined;
    const wanted = session.meta.settings?.tools ?? lookupModel(model).tools;
    return wanted ? AGENT_TOOLS : undefined;
  }

  private agentDeps(): AgentDeps {
    return { ...this.streaming(), sendToSession: (input) => this.sendToSession(input) };
  }

  /** What every streamed reply is written with: the chat model, its flush and keep-alive. */
  private streaming() {
    return {
      store: this.deps.store,
      provider: this.deps.providers.chat,
      flushMs: this.deps.flushMs ?? 250,
      keepAliveMs: this.deps.keepAliveMs ?? 5_000,
    };
  }

  private agentContext(
    session: SessionRecord,
    model: string,
    writer: TurnWriter,
    signal: AbortSignal | undefined,
    mayReach: ((id: SessionId) => Promise<boolean>) | undefined,
  ): AgentContext {
    return {
      session,
      model,
      writer,
      signal,
      depth: 0,
      tools: this.toolsFor(session, model),
      mayReach,
      callerId: null,
      compaction: this.deps.compaction,
      compacted: { value: false },
    };
  }

  /** A cross-session send: a turn at the target session's own HEAD, which it advances. */
  async sendToSession(input: SendInput): Promise<TurnResult> {
    await this.deps.store.getSession(input.sourceSessionId);
    return this.runTurn({
      sessionId: input.targetSessionId,
      mode: "send",
      content: input.content,
      signal: input.signal,
    });
  }

  /** HEAD to any conversation node of the session (the transcript follows). */
  async checkout(sessionId: SessionId, nodeId: NodeId): Promise<SessionRecord> {
    const session = await this.deps.store.getSession(sessionId);
    const lookup = await this.prefetch(session, [nodeId]);
    checkoutTarget(session.id, nodeId, (id) => lookup.get(id));
    return this.moveHead(session, nodeId, "checkout");
  }

  /** HEAD back to an earlier node of its own spine. */
  async rewind(sessionId: SessionId, nodeId: NodeId): Promise<SessionRecord> {
    const session = await this.deps.store.getSession(sessionId);
    await this.deps.store.node(session.id, nodeId);
    // The spine's structure is all the check reads: its `reads` (O(spine²) ids) stay unread.
    const spine = session.headId
      ? await this.deps.store.spine(session.id, session.headId, { reads: false })
      : [];
    const lookup = new Map(spine.map((n) => [n.id, n] as const));
    if (!lookup.has(nodeId)) lookup.set(nodeId, await this.deps.store.node(session.id, nodeId));
    rewindTarget({
      sessionId: session.id,
      headId: session.headId,
      targetId: nodeId,
      getNode: (id) => lookup.get(id),
    });
    return this.moveHead(session, nodeId, "rewind");
  }

  /** What the model would read from `headId` (default: HEAD). */
  async context(sessionId: SessionId, headId?: NodeId): Promise<RenderedContext> {
    const session = await this.deps.store.getSession(sessionId);
    const head = headId ?? session.headId;
    if (!head) throw new EngineError("invalid_ledger", "The session has no HEAD.");
    return loadRendering(this.deps.store, session, head);
  }

  /** The graph wire contract (compaction.md §6): every node plus coverage and spine marks. */
  async graph(sessionId: SessionId): Promise<GraphView> {
    const session = await this.deps.store.getSession(sessionId);
    return buildGraph(session, await this.deps.store.nodes(session.id));
  }

  /**
   * Deletes the branch whose tip is `tipId`: the nodes only that branch holds and what hangs
   * off them. HEAD moves to the fork point when it was on the removed part. Answers the
   * session after the delete with the removed ids (the browser drops exactly those).
   */
  async deleteBranch(sessionId: SessionId, tipId: NodeId): Promise<BranchDeleted> {
    const before = await this.deps.store.getSession(sessionId);
    await this.deps.store.node(before.id, tipId);
    // The store announces the removed ids and where HEAD went, as it found HEAD under the
    // write lock: a checkout landing between the read above and the lock is not hidden.
    const { session: after, removed } = await this.deps.store.removeNodes(
      before.id,
      async (session, slice) => {
        // What the plan reads, and nothing more ([R116]): the tip's family (the node and
        // its children), then its parent's, and so on up to the fork point; then the subtree
        // under the branch's top and the active summaries. The decisions are those of a plan
        // over the whole ledger.
        const around = new Map<NodeId, LedgerNode>();
        const loaded = new Set<NodeId>();
        let next: NodeId | null = tipId;
        let top: LedgerNode | null = null;
        while (next !== null) {
          // One after the other: they share the transaction's connection.
          for (const n of await slice.family(next)) around.set(n.id, n);
          loaded.add(next);
          const index = createLedgerIndex([...around.values()]);
          const found = findBranchTop({ session, index, tipId }, (id) => loaded.has(id));
          if ("need" in found) next = found.need;
          else {
            top = found.reach.top;
            next = null;
          }
        }
        if (top === null) throw new EngineError("invalid_ledger", `No branch top for ${tipId}.`);
        const below = await slice.subtree(top.id);
        const summaries = await slice.byIds(activeSummaryIds(session.meta));
        // A nested summary is judged by the turns under it: the summaries it names come too.
        const inner = await loadInnerSummaries(summaries, (ids) => slice.byIds(ids));
        const nodes = new Map(
          [...around.values(), ...below, ...summaries, ...inner].map((n) => [n.id, n] as const),
        );
        return planDeleteBranch({ session, index: createLedgerIndex([...nodes.values()]), tipId });
      },
    );
    return { ...after, removed };
  }

  /**
   * Loads a session for a write, first sealing replies whose writer died (an expired lease:
   * another instance crashed mid-stream) so they do not block the session ("on load").
   */
  async load(sessionId: SessionId): Promise<SessionRecord> {
    const session = await this.deps.store.getSession(sessionId);
    await this.deps.store.sealOrphans({ everything: false, sessionId: session.id });
    return session;
  }

  private async moveHead(
    before: SessionRecord,
    nodeId: NodeId,
    move: "checkout" | "rewind",
  ): Promise<SessionRecord> {
    return this.deps.store.setHead(before.id, nodeId, move);
  }

  /** The nodes a decision needs (HEAD, the named ids and their predecessors), by id. */
  private async prefetch(
    session: SessionRecord,
    ids: readonly (NodeId | undefined)[],
  ): Promise<Map<NodeId, LedgerNode>> {
    const wanted = ids.filter((id): id is NodeId => id !== undefined);
    if (session.headId) wanted.push(session.headId);
    // Decisions read kinds, statuses and predecessors, never `reads` (they grow with the
    // spine). The named nodes are read from the database (another instance may have deleted
    // one); their predecessors then exist too, and may come from the final-node cache.
    const first = await this.deps.store.nodesById(session.id, wanted, { reads: false });
    const preds = first.flatMap((n) => (n.predecessorId ? [n.predecessorId] : []));
    const second = await this.deps.store.nodesById(session.id, preds, { final: true });
    return new Map([...first, ...second].map((n) => [n.id, n] as const));
  }
}

/** The kind of the node a turn read, as the claim's compare-and-swap takes it. */
function predecessorKindOf(node: LedgerNode | undefined): { predecessorKind?: NodeKind } {
  return node === undefined ? {} : { predecessorKind: node.kind };
}

/**
 * Runs several generators at once, yielding each event as it comes; answers their results in
 * their order. A generator that throws fails the whole; the others are then finished in the
 * background (each seals its own reply).
 */
async function* interleave<T, R>(gens: readonly AsyncGenerator<T, R>[]): AsyncGenerator<T, R[]> {
  const results = new Array<R>(gens.length);
  const pull = (i: number) =>
    (gens[i] as AsyncGenerator<T, R>).next().then((step) => ({ i, step }));
  const pending = new Map(gens.map((_, i) => [i, pull(i)] as const));
  try {
    while (pending.size > 0) {
      const { i, step } = await Promise.race(pending.values());
      if (step.done) {
        results[i] = step.value;
        pending.delete(i);
      } else {
        pending.set(i, pull(i));
        yield step.value;
      }
    }
  } finally {
    for (const [i, p] of pending) void drain(p, gens[i] as AsyncGenerator<T, R>);
  }
  return results;
}

async function drain<T, R>(
  next: Promise<{ step: IteratorResult<T, R> }>,
  gen: AsyncGenerator<T, R>,
): Promise<void> {
  try {
    let { step } = await next;
    while (!step.done) step = await gen.next();
  } catch {
    // Its reply is sealed by its own finally; nothing is waiting for the error.
  }
}

/** Whether two id lists are the same, in order. */
function sameIds(a: readonly NodeId[], b: readonly NodeId[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
