import { activeSummaries, activeSummaryIds, summaryPolicyOf } from "@/lib/engine/active-summaries";
import { buildGraph, type GraphView } from "@/lib/engine/build-graph";
import { checkoutTarget } from "@/lib/engine/checkout-target";
import { tokens, type NodeId } from "@/lib/engine/ids";
import { metaAfterPlan } from "@/lib/engine/meta-after-compaction";
import { planCompaction, type CompactionWork } from "@/lib/engine/plan-compaction";
import { planDeleteBranch } from "@/lib/engine/plan-delete-branch";
import { planNesting } from "@/lib/engine/plan-nesting";
import { planTurn, type TurnMode } from "@/lib/engine/plan-turn";
import { readsOf } from "@/lib/engine/reads-of";
import { renderContext, type RenderedContext } from "@/lib/engine/render-context";
import { shouldAdvanceHead } from "@/lib/engine/should-advance-head";
import { summaryDraft } from "@/lib/engine/summary-draft";
import { innerSummariesOf } from "@/lib/engine/summary-turns";
import type { LedgerNode, NodeKind, SessionMeta, SummaryPolicy } from "@/lib/engine/types";
import { id, Ledger, SESSION } from "./helpers";

/** Every summary nested under `summaries`, at any depth, found in the ledger. */
export function innerOf(l: Ledger, summaries: readonly LedgerNode[]): readonly LedgerNode[] {
  return innerSummariesOf(summaries, l.index().get);
}

/**
 * An in-memory session driven only by engine decisions, under any compaction policy: the
 * store, the TurnWriter and the compactor reduced to their engine calls (the integration
 * suite runs the real ones).
 */
export class PolicySession {
  readonly l = new Ledger();
  head: NodeId = id("R");
  meta: SessionMeta;
  /** Every summariser call a compaction made: what it read. */
  readonly summariserReads: NodeId[][] = [];
  private n = 0;

  constructor(policy: SummaryPolicy = "rolling-single") {
    this.meta = policy === "rolling-single" ? {} : { settings: { policy } };
  }

  get policy(): SummaryPolicy {
    return summaryPolicyOf(this.meta);
  }

  setPolicy(policy: SummaryPolicy): void {
    this.meta = { ...this.meta, settings: { ...this.meta.settings, policy } };
  }

  private write(kind: NodeKind, predecessor: NodeId, extra = {}, tokenCount = 10): LedgerNode {
    const node = this.l.add(`${kind[0]}${++this.n}`, kind, predecessor, {
      ...extra,
      tokens: tokenCount,
    });
    if (shouldAdvanceHead({ currentHeadId: this.head, node, advanceHead: kind !== "summary" })) {
      this.head = node.id;
    }
    return node;
  }

  active(): readonly LedgerNode[] {
    return activeSummaries(this.meta, this.l.index().get);
  }

  render(from: NodeId = this.head): RenderedContext {
    const active = this.active();
    return renderContext({
      spine: this.l.spine(from),
      activeSummaries: active,
      innerSummaries: innerOf(this.l, active),
    });
  }

  /** One turn; the reply records the reads of the prompt it was produced from. */
  turn(mode: TurnMode = "send", target?: NodeId, tokenCount = 10): NodeId {
    const plan = planTurn({
      sessionId: SESSION,
      mode,
      headId: this.head,
      ...(mode === "send" ? { parentId: target } : { targetId: target }),
      advanceHead: true,
      turnInProgress: false,
      getNode: this.l.index().get,
    });
    let predecessor = plan.predecessorId;
    if (plan.writesUserNode) {
      const user = this.write("user", predecessor, {}, tokenCount);
      if (plan.forkMovesHead) this.head = user.id;
      predecessor = user.id;
    }
    const reads = readsOf(this.render(predecessor));
    const reply = this.write("assistant", predecessor, { metadata: { reads } }, tokenCount);
    if (!plan.writesUserNode && plan.forkMovesHead) this.head = reply.id;
    return reply.id;
  }

  private persist(plan: CompactionWork, tokenCount: number): NodeId {
    this.summariserReads.push([...plan.reads]);
    const draft = summaryDraft(plan, {
      text: `summary ${this.n + 1}`,
      tokenCount: tokens(tokenCount),
      trigger: "manual",
    });
    const s = this.write("summary", draft.predecessorId, { metadata: draft.metadata }, tokenCount);
    this.meta = metaAfterPlan(this.meta, plan, this.policy, { id: s.id, content: s.content });
    return s.id;
  }

  /**
   * One compaction run of the pipeline: a segment (or rolling) compaction, then — under
   * `nested` — the nesting step. Returns the summaries written, or the notice's code.
   */
  compact(keep: number, summariesBudget = Infinity, summaryTokens = 10): NodeId[] | string {
    const active = this.active();
    const inner = innerOf(this.l, active);
    const spine = this.l.spine(this.head);
    const plan = planCompaction({
      spine,
      rendering: renderContext({ spine, activeSummaries: active, innerSummaries: inner }),
      activeSummaries: active,
      innerSummaries: inner,
      policy: this.policy,
      keepRecentTokens: keep,
      ...(Number.isFinite(summariesBudget) ? { summariesBudget } : {}),
    });
    const written: NodeId[] = [];
    if (plan.kind === "compact") written.push(this.persist(plan, summaryTokens));
    if (this.policy === "nested") {
      const nowActive = this.active();
      const nowInner = innerOf(this.l, nowActive);
      const nest = planNesting({
        spine,
        rendering: renderContext({
          spine,
          activeSummaries: nowActive,
          innerSummaries: nowInner,
        }),
        activeSummaries: nowActive,
        innerSummaries: nowInner,
        summariesBudget,
      });
      if (nest !== null) written.push(this.persist(nest, summaryTokens));
    }
    if (written.length === 0 && plan.kind === "notice") return plan.code;
    return written;
  }

  checkout(nodeId: NodeId): void {
    this.head = checkoutTarget(SESSION, nodeId, this.l.index().get).id;
  }

  deleteBranch(tip: NodeId): readonly NodeId[] {
    const plan = planDeleteBranch({
      session: this.session(),
      index: this.l.index(),
      tipId: tip,
    });
    const gone = new Set(plan.ids);
    const kept = this.l.nodes.filter((n) => !gone.has(n.id));
    this.l.nodes.length = 0;
    this.l.nodes.push(...kept);
    if (plan.headAfter !== null) this.head = plan.headAfter;
    if (plan.metaAfter !== undefined) this.meta = plan.metaAfter;
    return plan.ids;
  }

  session() {
    return { ...this.l.session(this.head), meta: this.meta };
  }

  graph(): GraphView {
    return buildGraph(this.session(), this.l.nodes);
  }

  activeIds(): readonly NodeId[] {
    return activeSummaryIds(this.meta);
  }
}
