import type { Actor } from "../auth/actor";
import type { Compactor } from "../compaction/compactor";
import type { GraphView } from "../engine/build-graph";
import type { PackedLedger } from "../engine/packed-ledger";
import type { LeftOutWire } from "../engine/versions-left-out";
import { EngineError, isEngineError, type ErrorCode } from "../engine/errors";
import type { ChatGptImportResult } from "../http/schemas";
import { chatGptTitle, chatGptToLedger } from "../portability/chatgpt-import";
import { yieldToEventLoop } from "../yield-to-event-loop";
import { asNodeId, isIdShaped, tokens, type NodeId, type SessionId } from "../engine/ids";
import { activeSummaryIds, hasActiveSet } from "../engine/active-summaries";
import {
  leanNode,
  shapeNode,
  skeletonNode,
  type NodeView,
  type WireNode,
} from "../engine/wire-node";
import type { RenderedContext } from "../engine/render-context";
import {
  attachmentsOf,
  type LedgerNode,
  type SessionMeta,
  type SessionRecord,
  type SessionSettings,
} from "../engine/types";
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
import { DEFAULT_SYSTEM_PROMPT } from "../engine/system-prompt";
import type { AttachmentStore, StoredAttachment } from "../store/attachments";
import type { ImportStaging } from "../store/import-staging";
import type { LedgerReads } from "../store/ledger-reads";
import type { LedgerWrites } from "../store/ledger-writes";
import type { SessionPage, SessionRows } from "../store/session-rows";
import type { SearchInput, SearchStore } from "../store/search-store";
import type { SearchPage } from "../search/search-hit";
import { createLedgerIndex } from "../engine/ledger-index";
import { anchorOf, revealTarget } from "../engine/reveal-target";
import { coversIdsOf } from "../engine/covers-ids-of";
import { compareBranches, type BranchComparison } from "../engine/compare-branches";
import type { LedgerIndex } from "../engine/ledger-index";
import type {
  BranchDeleted,
  Dispatcher,
  ReplayInput,
  SendInput,
  SpawnInput,
  SpawnResult,
  TurnInput,
  TurnResult,
} from "./dispatcher";
import type { TurnEvent } from "./run-turn";
import type { AuditDesk, AuditInput } from "./audit-desk";
import type { AuditProgress } from "../audit/summary-auditor";
import type { SummaryAudit } from "../engine/summary-audit";
import { loadInnerSummaries } from "../engine/summary-turns";

/**
 * The parts of the store the workspace reads and writes itself (turns, HEAD moves and
 * deletes go through the dispatcher): sessions, the ledger's reads, a new or imported
 * session, the files.
 */
export type WorkspaceStore = SessionRows &
  LedgerReads &
  Pick<LedgerWrites, "createSession"> &
  Pick<ImportStaging, "importSession"> &
  Pick<AttachmentStore, "attachmentRow" | "blobs">;

export interface WorkspaceDeps {
  readonly dispatcher: Dispatcher;
  readonly store: WorkspaceStore;
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
  /** Audits of summaries (issue 22). */
  readonly audits: AuditDesk;
}

/**
 * Sessions of more nodes than this open near-first ([R294]): the page carries the part it
 * opens on and brings the rest once the graph shows. Up to it, the whole ledger (a page of
 * this many skeletons is about 0.3 MB).
 */
export const NEAR_FIRST_FROM = 5_000;

/** The ledger the session page is rendered with ({@link Workspace.firstLedger}). */
export interface FirstLedger {
  readonly nodes: readonly WireNode[];
  /** The session's node count when it was read: `nodes` is all of it when equal. */
  readonly total: number;
  /** The session's highest seq, read before `nodes`. */
  readonly lastSeq: number;
  /** `nodes` is the part the page opens on, not the whole ledger. */
  readonly near: boolean;
  /** Near: the versions of spine messages `nodes` leaves out, counted ({@link LeftOut}). */
  readonly leftOut: LeftOutWire;
}

/** `GET .../nodes`' answer (docs/big-sessions.md). */
export interface NodesPage {
  readonly nodes: readonly WireNode[];
  /** The session's highest seq. */
  readonly lastSeq: number;
  /** The `afterSeq` of the next page; null when this page reached the end. */
  readonly nextAfterSeq: number | null;
  /**
   * The session's node count: a browser holding a different number after catching up
   * missed a delete and makes one skeleton pass ([R122]).
   */
  readonly total: number;
}

/** `GET .../nodes?form=columns`' answer: the page's nodes in columns ([R293]). */
export interface PackedNodesPage extends Omit<NodesPage, "nodes"> {
  readonly ledger: PackedLedger;
}

/** `GET .../graph`'s answer: the graph contract's rows after `afterSeq`, and where to go on. */
export interface GraphPage extends GraphView {
  readonly lastSeq: number;
  readonly nextAfterSeq: number | null;
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
  /**
   * Sessions found to be the actor's: ownership never changes once a session exists (the
   * first account's adoption of single-user sessions happens at sign-up, outside any
   * workspace), so a positive answer holds for this workspace's life, one request. A "no"
   * is never kept; {@link remove} forgets what it deletes.
   */
  private readonly owned = new Set<SessionId>();

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
   * link opens the session as it is). `movedFrom` is HEAD before the move, when it moved.
   */
  async reveal(
    id: SessionId,
    nodeId: NodeId,
  ): Promise<{ session: SessionRecord; focusId: NodeId | null; movedFrom: NodeId | null }> {
    const session = await this.open(id);
    const target = revealTarget(await this.revealSlice(session, nodeId), session.headId, nodeId);
    if (target === null) return { session, focusId: null, movedFrom: null };
    if (!target.checkoutId) return { session, focusId: target.focusId, movedFrom: null };
    try {
      const moved = await this.deps.dispatcher.checkout(id, target.checkoutId);
      // Where HEAD was: the page offers to compare the branch opened with that one.
      return { session: moved, focusId: target.focusId, movedFrom: session.headId };
    } catch (e) {
      // The branch went away (another tab deleted it) between the read and the checkout:
      // the session opens as it is, like a stale link.
      if (isEngineError(e) && (e.code === "node_not_found" || e.code === "node_not_checkoutable")) {
        return { session: await this.open(id), focusId: null, movedFrom: null };
      }
      throw e;
    }
  }

  /**
   * What `revealTarget` reads, and no more: the node, what it names (a summary's covered
   * ids, a notice's predecessor), HEAD's spine and the subtree under the node's anchor —
   * structure only. Opening a search hit costs the branch, not the ledger.
   */
  private async revealSlice(session: SessionRecord, nodeId: NodeId): Promise<LedgerIndex> {
    const slice = this.deps.store.slice(session.id);
    const [node] = await slice.byIds([nodeId]);
    if (node === undefined) return createLedgerIndex([]);
    const near: LedgerNode[] = [node];
    if (node.kind === "notice" && node.predecessorId) {
      near.push(...(await slice.byIds([node.predecessorId])));
    }
    // A summary names its turns; a nested one names summaries, which name theirs.
    let frontier = node.kind === "summary" ? [node] : [];
    for (let depth = 0; frontier.length > 0 && depth < MAX_NESTING_READS; depth += 1) {
      const found = await slice.byIds(frontier.flatMap((n) => coversIdsOf(n)));
      near.push(...found);
      frontier = found.filter((n) => n.kind === "summary");
    }
    const anchor = anchorOf(createLedgerIndex(unique(near)), node);
    const spine = session.headId ? await slice.spineAndChildren(session.headId) : [];
    const below = anchor ? await slice.subtree(anchor.id) : [];
    return createLedgerIndex(unique([...near, ...spine, ...below]));
  }

  /** A new session; `systemPrompt` becomes its ROOT ([R106]), a `title` is the user's. */
  create(input: {
    title?: string | undefined;
    systemPrompt?: string | undefined;
    settings?: SettingsPatch | undefined;
  }): Promise<SessionRecord> {
    const { title, systemPrompt } = input;
    this.checkModelChoice(input.settings);
    const settings = mergeSettings({}, input.settings ?? {}).settings ?? {};
    return this.deps.store.createSession({
      title,
      systemPrompt,
      rootTokens: tokens(this.deps.count(systemPrompt ?? DEFAULT_SYSTEM_PROMPT)),
      ownerId: this.actor.ownerId,
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
    });
  }

  /** A model can be chosen only when an endpoint is configured. */
  private checkModelChoice(settings: SettingsPatch | undefined): void {
    if (typeof settings?.model === "string" && !this.deps.modelChoice) {
      throw new EngineError(
        "invalid_request",
        "Only the offline model is available: configure OPENAI_BASE_URL (and OPENAI_API_KEY) to choose models.",
      );
    }
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
    const { store } = this.deps;
    this.checkModelChoice(patch.settings);
    if (patch.title !== undefined) session = await store.renameSession(id, patch.title);
    const next = patch.settings;
    if (next !== undefined) {
      session = await store.updateMeta(id, (meta) => mergeSettings(meta, next));
    }
    return session;
  }

  async remove(id: SessionId): Promise<void> {
    await this.own(id);
    await this.deps.store.deleteSession(id);
    // Gone: a later call in this workspace asks the store again and answers 404.
    this.owned.delete(id);
  }

  async nodes(id: SessionId): Promise<LedgerNode[]> {
    await this.own(id);
    return this.deps.store.nodes(id);
  }

  /**
   * `GET .../nodes` (docs/big-sessions.md): the named `ids`, full (another session's are
   * left out), or the page after `afterSeq` in the asked shape. Every read is a probe or a
   * range scan of the (sessionId, seq) index: the cost follows the page, not the ledger.
   */
  async nodesPage(
    id: SessionId,
    query: {
      afterSeq?: number | undefined;
      limit?: number | undefined;
      view: NodeView;
      ids?: readonly string[] | undefined;
    },
  ): Promise<NodesPage> {
    await this.own(id);
    const { store } = this.deps;
    if (query.ids !== undefined) {
      const wanted = query.ids.filter(isIdShaped).map(asNodeId);
      const [found, lastSeq, total] = await Promise.all([
        store.nodesById(id, wanted),
        store.lastSeq(id),
        store.nodeCount(id),
      ]);
      return { nodes: found.sort((a, b) => a.seq - b.seq), lastSeq, nextAfterSeq: null, total };
    }
    const [page, lastSeq, total] = await Promise.all([
      store.nodesAfter(id, {
        afterSeq: query.afterSeq ?? -1,
        limit: query.limit,
        reads: query.view === "full",
      }),
      store.lastSeq(id),
      store.nodeCount(id),
    ]);
    const last = page.nodes.at(-1);
    return {
      nodes: page.nodes.map((n) => shapeNode(n, query.view)),
      // Never behind the page itself (an append may land between the two reads).
      lastSeq: Math.max(lastSeq, last?.seq ?? 0),
      nextAfterSeq: page.more && last ? last.seq : null,
      total,
    };
  }

  /**
   * The session page's first load: HEAD's spine, the active summaries and ROOT as lean
   * nodes with their whole content, every other node a skeleton (its card label), in seq
   * order. Node contents off the spine are read only as far as their label needs.
   */
  async skeleton(id: SessionId, options: { near?: boolean } = {}): Promise<WireNode[]> {
    const session = await this.session(id);
    return this.skeletonOf(session, options.near === true ? [] : null);
  }

  /**
   * What the session page is rendered with ([R294]): the whole ledger as {@link skeleton}
   * up to {@link NEAR_FIRST_FROM} nodes; above, only the part it opens on (HEAD's spine,
   * HEAD's children, ROOT, the active summaries, and `also`; the other versions of spine
   * messages counted in `leftOut`), and the browser
   * brings the rest in the background once the graph shows. `session` is the record the
   * page shows (read by `open` or `reveal`, so its HEAD is the one the part is built
   * around). `total` and `lastSeq` are read before the nodes, so every node the page lacks
   * is either in the rest or newer than `lastSeq` (a catch-up brings those).
   */
  async firstLedger(session: SessionRecord, also: readonly NodeId[] = []): Promise<FirstLedger> {
    const { id } = session;
    await this.own(id);
    const { store } = this.deps;
    const [total, lastSeq] = await Promise.all([store.nodeCount(id), store.lastSeq(id)]);
    const near = total > NEAR_FIRST_FROM && session.headId !== null;
    const nodes = await this.skeletonOf(session, near ? also : null);
    // What the part holds under spine messages beyond the spine itself: only `also`.
    const leftOut =
      near && session.headId !== null
        ? await store.versionsLeftOut(id, session.headId, also, lastSeq)
        : [];
    return { nodes, total, lastSeq, near, leftOut };
  }

  /** The first load of `session`: whole, or with `near` the part around HEAD plus those ids. */
  private async skeletonOf(
    session: SessionRecord,
    near: readonly NodeId[] | null,
  ): Promise<WireNode[]> {
    const { id } = session;
    const { store } = this.deps;
    const full = new Set<NodeId>(activeSummaryIds(session.meta));
    // A session with an active set may hold nested summaries: the page renders HEAD's
    // context through the summaries they name, so those come whole too.
    if (hasActiveSet(session.meta)) {
      const active = await store.nodesById(id, [...full], { final: true });
      const inner = await loadInnerSummaries(active, (ids) =>
        store.nodesById(id, ids, { final: true }),
      );
      for (const n of inner) full.add(n.id);
    }
    if (session.rootId) full.add(session.rootId);
    if (session.headId) for (const n of await store.spineIds(id, session.headId)) full.add(n);
    const entries = await store.skeletonNodes(
      id,
      full,
      near !== null && session.headId ? { headId: session.headId, also: near } : undefined,
    );
    return entries.map(({ node, label }) =>
      full.has(node.id) ? leanNode(node) : skeletonNode(node, label),
    );
  }

  /**
   * Two nodes' branches side by side from their fork point ([R181], issue 20): each column
   * as skeletons (the card label and the metadata: model, tokens), in order. The browser
   * fetches the rows it shows whole (`GET .../nodes?ids=`). Both spines are read through
   * the final-node cache, so the cost follows the branches, not the session.
   */
  async compare(id: SessionId, a: NodeId, b: NodeId): Promise<BranchComparison<WireNode>> {
    await this.own(id);
    if (a === b) throw new EngineError("invalid_request", "Pick two different nodes to compare.");
    const { store } = this.deps;
    const [spineA, spineB] = await Promise.all([
      store.spine(id, a, { reads: false }),
      store.spine(id, b, { reads: false }),
    ]);
    const compared = compareBranches(spineA, spineB);
    return {
      forkId: compared.forkId,
      a: compared.a.map((n) => skeletonNode(n)),
      b: compared.b.map((n) => skeletonNode(n)),
    };
  }

  async context(id: SessionId, headId?: NodeId): Promise<RenderedContext> {
    await this.own(id);
    return this.deps.dispatcher.context(id, headId);
  }

  /**
   * The graph wire contract; with `afterSeq` / `limit` only the rows after `afterSeq`, at
   * most `limit`. The coverage marks depend on the whole ledger, so the graph itself is
   * still built from it: paging bounds the answer, not the read.
   */
  async graph(
    id: SessionId,
    page: { afterSeq?: number | undefined; limit?: number | undefined } = {},
  ): Promise<GraphPage> {
    await this.own(id);
    const view = await this.deps.dispatcher.graph(id);
    const lastSeq = view.nodes.at(-1)?.seq ?? 0;
    const after = page.afterSeq ?? -1;
    const rows = view.nodes.filter((row) => row.seq > after);
    const limit = page.limit ?? rows.length;
    const more = rows.length > limit;
    const kept = more ? rows.slice(0, limit) : rows;
    return {
      ...view,
      nodes: kept,
      lastSeq,
      nextAfterSeq: more ? (kept.at(-1)?.seq ?? null) : null,
    };
  }

  /** A turn as a stream of events; ownership is checked before its first write. */
  async *turn(input: TurnInput): AsyncGenerator<TurnEvent, TurnResult> {
    await this.own(input.sessionId);
    return yield* this.deps.dispatcher.turn({ ...input, mayReach: (id) => this.owns(id) });
  }

  /** A replay of one of the session's replies ([R230]–[R233]): a new sibling, HEAD unmoved. */
  async *replay(input: ReplayInput): AsyncGenerator<TurnEvent, LedgerNode> {
    await this.own(input.sessionId);
    return yield* this.deps.dispatcher.replay(input);
  }

  /** Stores an upload waiting for its turn (R262). */
  async upload(input: {
    readonly sessionId: SessionId;
    readonly name: string;
    readonly bytes: Uint8Array;
  }): Promise<StoredAttachment> {
    await this.own(input.sessionId);
    return this.deps.dispatcher.upload(input);
  }

  /** An attachment of the session with its bytes (404 for anything else, R269). */
  async attachmentFile(
    id: SessionId,
    attachmentId: string,
  ): Promise<{ attachment: StoredAttachment; data: Uint8Array }> {
    await this.own(id);
    const attachment = await this.deps.store.attachmentRow(id, attachmentId);
    const blob = attachment
      ? (await this.deps.store.blobs(id, [attachment.sha256])).get(attachment.sha256)
      : undefined;
    if (!attachment || !blob) {
      throw new EngineError(
        "attachment_not_found",
        `No attachment ${attachmentId} in this session.`,
      );
    }
    return { attachment, data: blob.data };
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

  async deleteBranch(id: SessionId, tipId: NodeId): Promise<BranchDeleted> {
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
    const nodes = await this.deps.store.nodes(id);
    // The bytes of every file a node names, once per hash (R271).
    const hashes = [...new Set(nodes.flatMap((n) => attachmentsOf(n).map((a) => a.sha256)))];
    const blobs = await this.deps.store.blobs(id, hashes);
    const file = toLedgerFile(
      session,
      nodes,
      this.deps.now(),
      [...blobs].map(([sha256, b]) => ({
        sha256,
        size: b.data.byteLength,
        base64: Buffer.from(b.data).toString("base64"),
      })),
    );
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

  /** How many nodes a session has written (its highest seq): one index probe. */
  async nodeSpan(id: SessionId): Promise<number> {
    await this.own(id);
    return this.deps.store.lastSeq(id);
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

  /**
   * "Audit this summary": probes of its originals asked of it and of them, the result stored
   * append-only (docs/spec.md [R226]–[R229]). Yields progress, answers the stored audit.
   */
  async *audit(id: SessionId, input: AuditInput): AsyncGenerator<AuditProgress, SummaryAudit> {
    const session = await this.session(id);
    return yield* this.deps.audits.run(session, input);
  }

  /** The session's audits, newest first (of one summary when `summaryId` is given). */
  async audits(id: SessionId, summaryId?: NodeId): Promise<SummaryAudit[]> {
    return this.deps.audits.list(await this.session(id), summaryId);
  }

  /**
   * 404 unless the actor owns the session. Routes call it before they validate a body or a
   * query, so another account's id answers "not found" whatever else the request holds.
   */
  async own(id: SessionId): Promise<void> {
    if (!(await this.owns(id))) throw new EngineError("session_not_found", `No session ${id}.`);
  }

  /** Whether the actor owns the session (a missing one is not owned); asked once per id. */
  private async owns(id: SessionId): Promise<boolean> {
    if (this.owned.has(id)) return true;
    const mine = (await this.deps.store.ownerOf(id)) === this.actor.ownerId;
    if (mine) this.owned.add(id);
    return mine;
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

/** Levels of nesting a reveal follows (a cycle, refused at import, would end here). */
const MAX_NESTING_READS = 16;

/** Each node once (the slices overlap), its first occurrence kept. */
function unique(nodes: readonly LedgerNode[]): LedgerNode[] {
  const byId = new Map<NodeId, LedgerNode>();
  for (const n of nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  return [...byId.values()];
}
