import { acceptSummary } from "../engine/accept-summary";
import { autoCompactDecision } from "../engine/auto-compact-decision";
import { latchAfterFailure, type AutoCompactLatch } from "../engine/auto-compact-latch";
import { contextTokens } from "../engine/context-tokens";
import { EngineError, isEngineError } from "../engine/errors";
import { tokens, type NodeId, type SessionId, type Tokens } from "../engine/ids";
import { summaryPolicyOf } from "../engine/active-summaries";
import { metaAfterPlan } from "../engine/meta-after-compaction";
import {
  planCompaction,
  type CompactionNotice,
  type CompactionWork,
} from "../engine/plan-compaction";
import { planNesting } from "../engine/plan-nesting";
import { resolveBudget, summariesBudgetOf, type Budget } from "../engine/resolve-budget";
import { summaryDraft } from "../engine/summary-draft";
import { turnsSinceCompaction } from "../engine/turns-since-compaction";
import type {
  CompactionTrigger,
  LedgerNode,
  SessionMeta,
  SessionRecord,
  SummaryPolicy,
} from "../engine/types";
import type { EventBus } from "../events/session-event";
import { isProviderError } from "../llm/provider-error";
import { logProviderError, userMessage } from "../llm/user-message";
import type { Providers } from "../llm/provider-factory";
import { lookupModel } from "../llm/model-registry";
import type { AttachmentStore } from "../store/attachments";
import type { LedgerWrites } from "../store/ledger-writes";
import type { SessionRows } from "../store/session-rows";
import { loadView, type HeadView, type ViewReads } from "../view/head-view";
import type { TurnCompaction } from "./turn-compaction";
import { SUMMARIZER_PROMPT_TOKENS, summarizeInChunks } from "./summarize-in-chunks";
import { attachmentTextsForSummary } from "../view/attach-files";
import { truncateToTokens } from "../llm/tokens";
import { summaryBudgetOf } from "./summary-budget";

export interface CompactorDeps {
  /** The view's reads, the summary insert, the latch in meta, the files a summary reads. */
  readonly store: ViewReads &
    Pick<LedgerWrites, "appendSummary"> &
    Pick<SessionRows, "updateMeta"> &
    Pick<AttachmentStore, "blobs">;
  readonly bus: EventBus;
  readonly providers: Providers;
  readonly count: (text: string, model?: string) => Tokens;
  /** SPINDLE_CONTEXT_WINDOW / SPINDLE_KEEP_RECENT_TOKENS. */
  readonly serverWindow?: number | undefined;
  readonly serverKeepRecentTokens?: number | undefined;
  /**
   * Whether this process is running an agent loop in the session (between its tool rounds
   * nothing streams, yet the loop still writes there): a manual compaction waits for it.
   */
  readonly isBusy?: (sessionId: SessionId) => boolean;
}

/** POST .../compact's answer (product.md §4). */
export interface CompactResult {
  readonly summary: LedgerNode | null;
  readonly notice: string | null;
  readonly coveredCount: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** `nested`: the summary of summaries this compaction also wrote ([R245]). */
  readonly nestedSummary?: LedgerNode;
}

/** Where the failure latch of auto-compaction lives in session meta. */
const LATCH_KEY = "_auto_compact_latch";

/**
 * The one compaction pipeline of compaction.md §4, for `/compact`, auto-compaction before a
 * turn and reactive compaction on a context overflow. It writes exactly one summary node and
 * moves `_last_summary_id` / `_last_summary_text` with it, atomically; it never moves HEAD.
 */
export class Compactor implements TurnCompaction {
  constructor(private readonly deps: CompactorDeps) {}

  /** The token budget a session runs under (registry window, env and session overrides). */
  budgetOf(session: SessionRecord): Budget {
    const model = session.meta.settings?.model ?? this.deps.providers.chat.model;
    return resolveBudget({
      settings: session.meta.settings,
      modelWindow: lookupModel(model).contextWindow,
      serverWindow: this.deps.serverWindow,
      serverKeepRecentTokens: this.deps.serverKeepRecentTokens,
    });
  }

  /**
   * Compacts the rendered view of `headId` (default: HEAD) under the session's policy: one
   * summary — and, under `nested`, a second when the summaries the branch reads have
   * outgrown their share of the window ([R245]).
   */
  async compact(
    session: SessionRecord,
    headId: NodeId | null = session.headId,
    trigger: CompactionTrigger = "manual",
  ): Promise<CompactResult> {
    if (headId === null) throw new EngineError("invalid_ledger", "The session has no HEAD.");
    const { bus } = this.deps;
    bus.publish(session.id, { type: "compaction_started", trigger, headId });
    try {
      const view = await loadView(this.deps.store, session, headId);
      const { spine, rendering } = view;
      // A reply still streaming on this branch is not a turn yet: summarising its partial
      // text would hide the finished reply from every later prompt.
      if (spine.some((n) => n.status === "streaming")) {
        throw new EngineError(
          "turn_in_progress",
          "A reply is still streaming on this branch; compact once it has finished.",
        );
      }
      // Between an agent's tool rounds nothing streams, but the loop still writes here. (Its
      // own reactive compaction is part of the loop and goes ahead.)
      if (trigger === "manual" && this.deps.isBusy?.(session.id)) {
        throw new EngineError(
          "turn_in_progress",
          "The assistant is still working in this session (running tools); compact once it has finished.",
        );
      }
      const budget = this.budgetOf(session);
      const policy = summaryPolicyOf(session.meta);
      const summariesBudget = summariesBudgetOf(budget.window);
      const plan = planCompaction({
        spine,
        rendering,
        activeSummaries: view.activeSummaries,
        innerSummaries: view.innerSummaries,
        policy,
        summariesBudget,
        // A reactive compaction must make room even when the view already fits the kept
        // window (the server's real window is smaller than the budget's): it keeps at most
        // half of the current context (docs/spec.md, Decisions: `nothing_to_compact`).
        keepRecentTokens:
          trigger === "reactive"
            ? Math.min(budget.keepRecentTokens, Math.floor(contextTokens(rendering.messages) / 2))
            : budget.keepRecentTokens,
        // The user asked for it: everything before the latest exchange goes ([R200]).
        keep: trigger === "manual" ? "latest-exchange" : "window",
      });
      const segment =
        plan.kind === "compact"
          ? await this.summarizeAndPersist(session, plan, trigger, policy)
          : null;
      const nest =
        policy === "nested"
          ? await this.nest(
              { ...session, meta: segment?.meta ?? session.meta },
              headId,
              trigger,
              summariesBudget,
            )
          : null;
      const first = segment ?? nest;
      if (first === null) {
        const notice = plan as CompactionNotice;
        bus.publish(session.id, {
          type: "notice",
          code: notice.code,
          message: notice.message,
          nodeId: null,
        });
        return {
          summary: null,
          notice: notice.message,
          coveredCount: 0,
          tokensBefore: notice.tokensBefore,
          tokensAfter: notice.tokensBefore,
        };
      }
      return {
        summary: first.node,
        notice: null,
        coveredCount: first.plan.coversIds.length,
        tokensBefore: first.plan.tokensBefore,
        tokensAfter: (nest ?? first).tokensAfter,
        ...(segment !== null && nest !== null ? { nestedSummary: nest.node } : {}),
      };
    } catch (e) {
      const failure = asCompactionError(e);
      // A lost compare-and-swap is no failure of the session: another compaction finished
      // (and announced itself); only this caller needs to know.
      if (failure.code !== "compaction_conflict") {
        bus.publish(session.id, {
          type: "compaction_failed",
          trigger,
          code: failure.code,
          message: failure.message,
        });
      }
      throw failure;
    }
  }

  /**
   * The nesting step of `nested` after a segment compaction (or instead of one that had
   * nothing to do): when the summaries the branch reads cost more than their budget, all
   * but the newest are summarised into one ([R245]). Its failure is not the compaction's —
   * the segment landed — so it becomes a notice, and a lost race is nothing at all.
   */
  private async nest(
    session: SessionRecord,
    headId: NodeId,
    trigger: CompactionTrigger,
    summariesBudget: number,
  ): Promise<Persisted | null> {
    try {
      const view = await loadView(this.deps.store, session, headId);
      const plan = planNesting({
        spine: view.spine,
        rendering: view.rendering,
        activeSummaries: view.activeSummaries,
        innerSummaries: view.innerSummaries,
        summariesBudget,
      });
      if (plan === null) return null;
      return await this.summarizeAndPersist(session, plan, trigger, "nested");
    } catch (e) {
      const failure = asCompactionError(e);
      if (failure.code !== "compaction_conflict") {
        this.deps.bus.publish(session.id, {
          type: "notice",
          code: "nesting_failed",
          message: `The older summaries could not be summarised again (${failure.message}); they stay as they are.`,
          nodeId: null,
        });
      }
      return null;
    }
  }

  /** Auto-compaction before a turn, at ≥ 80% of the window, with its guards; true if it compacted. */
  async beforeTurn(
    session: SessionRecord,
    parentId: NodeId,
    newMessageTokens: number,
    view?: HeadView,
  ): Promise<boolean> {
    const budget = this.budgetOf(session);
    const { rendering, active } = view ?? (await loadView(this.deps.store, session, parentId));
    const renderedTokens = contextTokens(rendering.messages);
    const latch = (session.meta[LATCH_KEY] as AutoCompactLatch | undefined) ?? null;
    const decision = autoCompactDecision({
      enabled: budget.autoCompact,
      renderedTokens,
      newMessageTokens,
      reservedOutput: budget.reservedOutput,
      window: budget.window,
      compactedThisTurn: false,
      latch,
      turnsSinceCompaction: turnsSinceCompaction(rendering, active),
    });
    if (decision.kind === "thrash") {
      this.deps.bus.publish(session.id, {
        type: "notice",
        code: "compaction_thrash",
        message: decision.message,
        nodeId: null,
      });
      return false;
    }
    if (decision.kind !== "compact") return false;
    try {
      const result = await this.compact(session, parentId, "auto");
      if (latch) await this.deps.store.updateMeta(session.id, (m) => withoutLatch(m));
      return result.summary !== null;
    } catch (e) {
      // Another tab's compaction landed first: the room is made, and the turn renders with
      // that summary (it reads the meta it is claimed under).
      if (isEngineError(e) && e.code === "compaction_conflict") return false;
      // A failed auto-compaction never blocks the turn; it latches until the context grew.
      const message = e instanceof Error ? e.message : String(e);
      this.deps.bus.publish(session.id, {
        type: "notice",
        code: "compaction_latched",
        message: `Auto-compaction failed (${message}); the turn continues uncompacted.`,
        nodeId: null,
      });
      await this.deps.store.updateMeta(session.id, (m) => ({
        ...m,
        [LATCH_KEY]: latchAfterFailure(renderedTokens),
      }));
      return false;
    }
  }

  /** Reactive compaction after a context overflow; true when the turn may retry once. */
  async onOverflow(session: SessionRecord, parentId: NodeId): Promise<boolean> {
    try {
      const result = await this.compact(session, parentId, "reactive");
      return result.summary !== null;
    } catch (e) {
      // Another compaction landed first: it made the room; the turn re-renders and retries.
      return isEngineError(e) && e.code === "compaction_conflict";
    }
  }

  /** What the summariser reads of the covered messages' attachments (R268): one blobs read. */
  private attachmentTextOf(
    session: SessionRecord,
    plan: CompactionWork,
    perFileTokens: number,
    model: string,
  ): Promise<Map<NodeId, string>> {
    return attachmentTextsForSummary(
      plan.covered,
      (hashes) => this.deps.store.blobs(session.id, hashes),
      (text) => truncateToTokens(text, perFileTokens, model),
    );
  }

  /** Summarises a plan, checks the result, and lands it under the plan's compare-and-swap. */
  private async summarizeAndPersist(
    session: SessionRecord,
    plan: CompactionWork,
    trigger: CompactionTrigger,
    policy: SummaryPolicy,
  ): Promise<Persisted> {
    const model = this.deps.providers.summaryModel;
    const window = lookupModel(model).contextWindow;
    const summarizerWindow = this.deps.serverWindow ?? window;
    const attachmentText = await this.attachmentTextOf(
      session,
      plan,
      Math.max(64, Math.floor((summarizerWindow - SUMMARIZER_PROMPT_TOKENS) / 4)),
      model,
    );
    const text = await summarizeInChunks({
      summarizer: this.deps.providers.summarizer,
      plan,
      attachmentText,
      summarizerWindow,
      budget: summaryBudget(this.budgetOf(session)),
      count: (t) => this.deps.count(t, model),
    });
    const tokenCount = this.deps.count(text, model);
    const verdict = acceptSummary(plan, { text, tokenCount });
    if (!verdict.accept) {
      throw new EngineError(
        verdict.reason === "empty" ? "compaction_failed" : "summary_not_smaller",
        verdict.reason === "empty"
          ? "The summariser returned an empty summary; nothing was written."
          : `The summary would not shrink the context (${plan.tokensBefore} → ${verdict.tokensAfter} tokens); nothing was written.`,
      );
    }
    const draft = summaryDraft(plan, { text, tokenCount, trigger, model });
    const { node, meta } = await this.deps.store.appendSummary({
      sessionId: session.id,
      ...draft,
      // The plan was made from `session` seconds ago (the summariser ran since): it lands
      // only if no other compaction or branch delete changed what it summarised.
      expectSummary: { activeIds: plan.activeBefore, coversIds: plan.coversIds },
      metaAfter: (current, summary) =>
        withoutLatch(
          metaAfterPlan(current, plan, policy, { id: summary.id, content: summary.content }),
        ),
    });
    // The store announced the summary (`node_appended`) when it committed.
    this.deps.bus.publish(session.id, {
      type: "compaction_finished",
      trigger,
      summary_id: node.id,
      counts: plan.counts,
      tokensBefore: plan.tokensBefore,
      tokensAfter: tokens(verdict.tokensAfter),
    });
    return { node, tokensAfter: verdict.tokensAfter, plan, meta };
  }
}

/** A summary that landed, with the plan it came from and the session meta it left. */
interface Persisted {
  readonly node: LedgerNode;
  readonly tokensAfter: number;
  readonly plan: CompactionWork;
  readonly meta: SessionMeta;
}

/** The summary may use a tenth of the window, at least 256 tokens, at most 4,096. */
function summaryBudget(budget: Budget): number {
  return summaryBudgetOf(budget.window);
}

function withoutLatch(meta: SessionMeta): SessionMeta {
  if (!(LATCH_KEY in meta)) return meta;
  const { [LATCH_KEY]: _dropped, ...rest } = meta;
  return rest;
}

function asCompactionError(e: unknown): EngineError {
  if (isEngineError(e)) return e;
  if (isProviderError(e)) {
    logProviderError("compaction", e);
    return new EngineError("compaction_failed", `The summariser failed: ${userMessage(e)}`, {
      providerCode: e.code,
    });
  }
  console.error("[spindle] compaction failed", e);
  return new EngineError(
    "compaction_failed",
    "Compaction failed on the server; nothing was written.",
  );
}
