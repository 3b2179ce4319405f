import type { Actor } from "../auth/actor";
import type { Compactor } from "../compaction/compactor";
import type { GraphView } from "../engine/build-graph";
import { EngineError, isEngineError, type ErrorCode } from "../engine/errors";
import type { ChatGptImportResult } from "../http/schemas";
import { chatGptTitle, chatGptToLedger } from "../portability/chatgpt-import";
import { yieldToEventLoop } from "../yield-to-event-loop";
import { tokens, type NodeId, type SessionId } from "../engine/ids";
import type { RenderedContext } from "../engine/render-context";
import type { LedgerNode, SessionMeta, SessionRecord, SessionSettings } from "../engine/types";
import type { EventBus, SessionEventListener } from "../events/session-event";
import {
  type ImportLimits,
  type LedgerShell,
  parseLedgerNodes,
  planImport,
  toLedgerFile,
  type LedgerFile,
} from "../portability/ledger-file";
import { planBranchCopy } from "../portability/branch-copy";
import { DEFAULT_SYSTEM_PROMPT, type SessionPage, type SessionStore } from "../store/session-store";
import type { SearchInput, SearchStore } from "../store/search-store";
import type { SearchPage } from "../search/search-hit";
import { createLedgerIndex } from "../engine/ledger-index";
import { revealTarget } from "../engine/reveal-target";
import type {
  Dispatcher,
  SendInput,
  SpawnInput,
  SpawnResult,
  TurnInput,
  TurnResult,
} from "./dispatcher";
import type { TurnEvent } from "./run-turn";

export interface WorkspaceDeps {
  readonly dispatcher: Dispatcher;
  readonly store: SessionStore;
  readonly search: SearchStore;
  readonly compactor: Compactor;
  readonly bus: EventBus;
  readonly newNodeId: () => NodeId;
  readonly now: () => Date;
  /** Tokens of a text with the server's model (a system prompt's, priced like any message). */
  readonly count: (text: string) => number;
  /** False with the offline model, which offers no other model to pick. */
  readonly modelChoice: boolean;
  readonly importLimits: ImportLimits;
  /** Imports this process writes at once (each holds a parsed ledger in memory). */
  readonly importSlots: { active: number; readonly max: number };
}

/** Sessions per page of the list when the caller names no `limit`. */
export const DEFAULT_PAGE_SIZE = 30;

/** A settings patch: `null` clears an override (the server-wide default applies again). */
export type SettingsPatch = {
  readonly [K in keyof SessionSettings]?: SessionSettings[K] | null | undefined;
};

/**
 * The dispatcher as one account sees it: the single place where ownership is checked.
 * Every operation on a session first confirms that the actor owns it; another account's
 * session answers `session_not_found` exactly like a missing one (a 404, never a 403, which
 * would confirm it exists). Node ids are then checked against that session by the store, so
 * an id from someone else's session is not found either. Route handlers, server actions and
 * pages reach sessions only through here.
 */
export class Workspace {
  constructor(
    private readonly deps: WorkspaceDeps,
    readonly actor: Actor,
  ) {}

  /** The session, if the actor owns it. */
  async session(id: SessionId): Promise<SessionRecord> {
    await this.own(id);
    return this.deps.store.getSession(id);
  }

  /** The session for a page, with replies of dead writers sealed first ("on load"). */
  async open(id: SessionId): Promise<SessionRecord> {
    await this.own(id);
    return this.deps.dispatcher.load(id);
  }

  /** The actor's sessions, newest activity first, a page at a time ([R108]). */
  list(input: {
    limit?: number | undefined;
    cursor?: string | undefined;
    q?: string | undefined;
  }): Promise<SessionPage> {
    return this.deps.store.listSessions({
      limit: input.limit ?? DEFAULT_PAGE_SIZE,
      cursor: input.cursor,
      q: input.q,
      ownerId: this.actor.ownerId,
    });
  }

  /** Full-text search over the actor's own sessions only (the owner is filtered in SQL). */
  search(query: string, input: SearchInput): Promise<SearchPage> {
    return this.deps.search.search(this.actor.ownerId, query, input);
  }

  /**
   * The session for a page opened at one node (a search result): HEAD moves, by an ordinary
   * checkout, only when the node is not on HEAD's branch ({@link revealTarget}). `focusId`
   * is the node the transcript shows; null when `nodeId` is not in this session (a stale
   * link opens the session as it is).
   */
  async reveal(
    id: SessionId,
    nodeId: NodeId,
  ): Promise<{ session: SessionRecord; focusId: NodeId | null }> {
    const session = await this.open(id);
    const target = revealTarget(
      createLedgerIndex(await this.deps.store.nodes(id)),
      session.headId,
      nodeId,
    );
    if (target === null) return { session, focusId: null };
    if (!target.checkoutId) return { session, focusId: target.focusId };
    try {
      const moved = await this.deps.dispatcher.checkout(id, target.checkoutId);
      return { session: moved, focusId: target.focusId };
    } catch (e) {
      // The branch went away (another tab deleted it) between the read and the checkout:
      // the session opens as it is, like a stale link.
      if (isEngineError(e) && (e.code === "node_not_found" || e.code === "node_not_checkoutable")) {
        return { session: await this.open(id), focusId: null };
      }
      throw e;
    }
  }

  /** A new session; `systemPrompt` becomes its ROOT ([R106]), a `title` is the user's. */
  create(input: {
    title?: string | undefined;
    systemPrompt?: string | undefined;
  }): Promise<SessionRecord> {
    const { title, systemPrompt } = input;
    return this.deps.store.createSession({
      title,
      systemPrompt,
      rootTokens: tokens(this.deps.count(systemPrompt ?? DEFAULT_SYSTEM_PROMPT)),
      ownerId: this.actor.ownerId,
    });
  }

  /**
   * "New session from this branch with a different system prompt" ([R107]): the branch
   * ending at `headId` (default HEAD) copied under a new ROOT into a new session of the
   * actor's, HEAD at its tip. The source is not touched.
   */
  async fork(
    id: SessionId,
    input: { systemPrompt: string; title?: string | undefined; headId?: NodeId | undefined },
  ): Promise<SessionRecord> {
    const source = await this.session(id);
    const tip = input.headId ?? source.headId;
    if (!tip) throw new EngineError("invalid_ledger", "The session has no HEAD to copy.");
    const plan = planBranchCopy({
      source,
      spine: await this.deps.store.spine(id, tip),
      systemPrompt: input.systemPrompt,
      systemPromptTokens: tokens(this.deps.count(input.systemPrompt)),
      title: input.title,
      newId: () => this.deps.newNodeId(),
      now: this.deps.now().toISOString(),
    });
    return this.deps.store.importSession(plan, this.actor.ownerId);
  }

  async update(
    id: SessionId,
    patch: { title?: string | undefined; settings?: SettingsPatch | undefined },
  ): Promise<SessionRecord> {
    let session = await this.session(id);
    const { store, bus } = this.deps;
    if (typeof patch.settings?.model === "string" && !this.deps.modelChoice) {
      throw new EngineError(
        "invalid_request",
        "Only the offline model is available: configure OPENAI_BASE_URL (and OPENAI_API_KEY) to choose models.",
      );
    }
    if (patch.title !== undefined) session = await store.renameSession(id, patch.title);
    const next = patch.settings;
    if (next !== undefined) {
      session = await store.updateMeta(id, (meta) => mergeSettings(meta, next));
    }
    bus.publish(id, { type: "session_changed" });
    return session;
  }

  async remove(id: SessionId): Promise<void> {
    await this.own(id);
    await this.deps.store.deleteSession(id);
  }

  async nodes(id: SessionId): Promise<LedgerNode[]> {
    await this.own(id);
    return this.deps.store.nodes(id);
  }

  async context(id: SessionId, headId?: NodeId): Promise<RenderedContext> {
    await this.own(id);
    return this.deps.dispatcher.context(id, headId);
  }

  async graph(id: SessionId): Promise<GraphView> {
    await this.own(id);
    return this.deps.dispatcher.graph(id);
  }

  /** A turn as a stream of events; ownership is checked before its first write. */
  async *turn(input: TurnInput): AsyncGenerator<TurnEvent, TurnResult> {
    await this.own(input.sessionId);
    return yield* this.deps.dispatcher.turn({ ...input, mayReach: (id) => this.owns(id) });
  }

  /** `checkout` (any conversation node) or `rewind` (back along HEAD's spine). */
  moveHead(
    id: SessionId,
    input: { nodeId: NodeId; move: "checkout" | "rewind" },
  ): Promise<SessionRecord> {
    return input.move === "rewind"
      ? this.rewind(id, input.nodeId)
      : this.checkout(id, input.nodeId);
  }

  async checkout(id: SessionId, nodeId: NodeId): Promise<SessionRecord> {
    await this.own(id);
    return this.deps.dispatcher.checkout(id, nodeId);
  }

  async rewind(id: SessionId, nodeId: NodeId): Promise<SessionRecord> {
    await this.own(id);
    return this.deps.dispatcher.rewind(id, nodeId);
  }

  async deleteBranch(id: SessionId, tipId: NodeId): Promise<SessionRecord> {
    await this.own(id);
    return this.deps.dispatcher.deleteBranch(id, tipId);
  }

  async compact(id: SessionId) {
    await this.own(id);
    return this.deps.compactor.compact(await this.deps.store.getSession(id));
  }

  async spawn(input: SpawnInput): Promise<SpawnResult> {
    await this.own(input.sessionId);
    return this.deps.dispatcher.spawn({ ...input, mayReach: (id) => this.owns(id) });
  }

  /** A cross-session send: both the source and the target must be the actor's. */
  async sendToSession(input: SendInput): Promise<TurnResult> {
    await this.own(input.sourceSessionId);
    await this.own(input.targetSessionId);
    return this.deps.dispatcher.sendToSession(input);
  }

  /** Subscribes to the session channel (the SSE `/events` stream). */
  async subscribe(id: SessionId, listener: SessionEventListener): Promise<() => void> {
    await this.own(id);
    return this.deps.bus.subscribe(id, listener);
  }

  async exportLedger(id: SessionId): Promise<{ session: SessionRecord; file: LedgerFile }> {
    const session = await this.session(id);
    const file = toLedgerFile(session, await this.deps.store.nodes(id), this.deps.now());
    return { session, file };
  }

  /** The ledger from `head` to ROOT and what the model reads there (the Markdown export). */
  async branch(
    id: SessionId,
    head?: NodeId,
  ): Promise<{ session: SessionRecord; spine: LedgerNode[]; rendering: RenderedContext }> {
    const session = await this.session(id);
    const at = head ?? session.headId;
    if (!at) throw new EngineError("invalid_ledger", "The session has no HEAD to export.");
    const [spine, rendering] = await Promise.all([
      this.deps.store.spine(id, at),
      this.deps.dispatcher.context(id, at),
    ]);
    return { session, spine, rendering };
  }

  /** Imports a ledger file as a new session of the actor's (nodes checked in batches). */
  importLedger(shell: LedgerShell): Promise<SessionRecord> {
    return this.inImportSlot(() => this.importOne(shell));
  }

  /**
   * Imports each conversation of a ChatGPT export as a new session of the actor's, each on
   * its own through the same validated path as a ledger file: one that fails is reported
   * with its index and writes nothing; the others are imported. One import slot is held
   * for the whole export (it is parsed in memory once).
   */
  importChatGpt(conversations: readonly unknown[]): Promise<ChatGptImportResult> {
    return this.inImportSlot(async () => {
      const result: ChatGptImportResult = { imported: [], failed: [] };
      for (const [index, raw] of conversations.entries()) {
        try {
          const shell = chatGptToLedger(raw, {
            maxNodes: this.deps.importLimits.maxNodes,
            now: this.deps.now(),
          });
          const session = await this.importOne(shell);
          result.imported.push({
            index,
            sessionId: session.id,
            title: session.title,
            nodes: shell.nodes.length,
          });
        } catch (e) {
          result.failed.push({ index, title: chatGptTitle(raw), error: importErrorOf(e) });
        }
        await yieldToEventLoop();
      }
      return result;
    });
  }

  private async importOne(shell: LedgerShell): Promise<SessionRecord> {
    const file = await parseLedgerNodes(shell, this.deps.importLimits);
    const plan = await planImport(file, () => this.deps.newNodeId(), this.deps.importLimits);
    return this.deps.store.importSession(plan, this.actor.ownerId);
  }

  /** Imports hold a parsed file in memory: a few at a time per process. */
  private async inImportSlot<T>(fn: () => Promise<T>): Promise<T> {
    const slots = this.deps.importSlots;
    if (slots.active >= slots.max) throw new EngineError("import_busy");
    slots.active += 1;
    try {
      return await fn();
    } finally {
      slots.active -= 1;
    }
  }

  private async own(id: SessionId): Promise<void> {
    if (!(await this.owns(id))) throw new EngineError("session_not_found", `No session ${id}.`);
  }

  /** Whether the actor owns the session (a missing one is not owned). */
  private async owns(id: SessionId): Promise<boolean> {
    return (await this.deps.store.ownerOf(id)) === this.actor.ownerId;
  }
}

/** A failed conversation's error: the catalogue's words, never an unexpected error's. */
function importErrorOf(e: unknown): { code: ErrorCode; message: string } {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  console.error("[spindle] a ChatGPT conversation failed to import", e);
  return { code: "internal", message: "Something went wrong on the server." };
}

function mergeSettings(meta: SessionMeta, patch: SettingsPatch): SessionMeta {
  const merged: Record<string, unknown> = { ...meta.settings };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return { ...meta, settings: merged as SessionSettings };
}
