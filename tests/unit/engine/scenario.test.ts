import { describe, expect, it } from "vitest";
import { activeSummaries } from "@/lib/engine/active-summaries";
import { buildGraph } from "@/lib/engine/build-graph";
import { checkoutTarget } from "@/lib/engine/checkout-target";
import { tokens, type NodeId } from "@/lib/engine/ids";
import { metaAfterCompaction } from "@/lib/engine/meta-after-compaction";
import { planCompaction } from "@/lib/engine/plan-compaction";
import { planTurn, type TurnMode } from "@/lib/engine/plan-turn";
import { readsOf } from "@/lib/engine/reads-of";
import { renderContext, type RenderedContext } from "@/lib/engine/render-context";
import { shouldAdvanceHead } from "@/lib/engine/should-advance-head";
import { summaryDraft } from "@/lib/engine/summary-draft";
import type { NodeKind, SessionMeta } from "@/lib/engine/types";
import { id, Ledger, SESSION } from "./helpers";

/** An in-memory stand-in for the store + TurnWriter, driven only by engine decisions. */
class Session {
  readonly l = new Ledger();
  head: NodeId | null = id("R");
  meta: SessionMeta = {};
  private n = 0;

  private write(kind: NodeKind, predecessor: NodeId, advanceHead: boolean, extra = {}) {
    const nodeId = `${kind[0]}${++this.n}`;
    const node = this.l.add(nodeId, kind, predecessor, extra);
    if (shouldAdvanceHead({ currentHeadId: this.head, node, advanceHead })) this.head = node.id;
    return node;
  }

  render(): RenderedContext {
    const index = this.l.index();
    if (this.head === null) throw new Error("no head");
    return renderContext({
      spine: this.l.spine(this.head),
      activeSummaries: activeSummaries(this.meta, index.get),
    });
  }

  turn(mode: TurnMode, target?: NodeId, advanceHead = true) {
    const plan = planTurn({
      sessionId: SESSION,
      mode,
      headId: this.head,
      ...(mode === "send" ? { parentId: target } : { targetId: target }),
      advanceHead,
      turnInProgress: false,
      getNode: this.l.index().get,
    });
    let predecessor = plan.predecessorId;
    if (plan.writesUserNode) {
      const user = this.write("user", predecessor, advanceHead);
      if (plan.forkMovesHead) this.head = user.id;
      predecessor = user.id;
    }
    const reads = readsOf(this.renderFrom(predecessor));
    const reply = this.write("assistant", predecessor, advanceHead, { metadata: { reads } });
    if (!plan.writesUserNode && plan.forkMovesHead) this.head = reply.id;
    return reply.id;
  }

  private renderFrom(nodeId: NodeId) {
    return renderContext({
      spine: this.l.spine(nodeId),
      activeSummaries: activeSummaries(this.meta, this.l.index().get),
    });
  }

  compact(keep: number) {
    if (this.head === null) throw new Error("no head");
    const index = this.l.index();
    const spine = this.l.spine(this.head);
    const active = activeSummaries(this.meta, index.get);
    const plan = planCompaction({
      spine,
      rendering: renderContext({ spine, activeSummaries: active }),
      activeSummary: active[0] ?? null,
      keepRecentTokens: keep,
    });
    if (plan.kind === "notice") return plan.code;
    const draft = summaryDraft(plan, {
      text: `sum${this.n}`,
      tokenCount: tokens(10),
      trigger: "manual",
    });
    const s = this.write("summary", draft.predecessorId, draft.advanceHead, {
      content: draft.content,
      metadata: draft.metadata,
    });
    this.meta = metaAfterCompaction(this.meta, s.id, s.content);
    return s.id;
  }

  checkout(nodeId: NodeId) {
    this.head = checkoutTarget(SESSION, nodeId, this.l.index().get).id;
  }
}

describe("scenario: chat → fork → checkout → compact → chat → compact → chat", () => {
  it("[R52] HEAD and the rendering are right after every step", () => {
    const s = new Session();
    for (let i = 0; i < 4; i += 1) s.turn("send");
    const main = s.head!;
    expect(s.render().ids).toHaveLength(9);

    // Retry the second reply: a fork HEAD follows.
    const retried = s.turn("retry", id("a4"));
    expect(s.head).toBe(retried);
    expect(s.render().ids).toEqual(["R", "u1", "a2", "u3", retried]);

    // Back to the main branch and compact it, keeping two messages.
    s.checkout(main);
    const s1 = s.compact(28);
    expect(s.head).toBe(main);
    expect(s.render().ids).toEqual(["R", s1, "u7", "a8"]);
    // The fork renders raw: it lacks part of the covered segment.
    s.checkout(retried);
    expect(s.render().ids).toEqual(["R", "u1", "a2", "u3", retried]);

    s.checkout(main);
    s.turn("send");
    s.turn("send");
    const s2 = s.compact(28);
    expect(s.head).toBe("a14");
    const view = s.render();
    expect(view.ids).toEqual(["R", s2, "u13", "a14"]);
    const covers = s.l.get(s2).metadata.covers_ids ?? [];
    expect(covers).toEqual(ids("u1 a2 u3 a4 u5 a6 u7 a8 u11 a12"));

    s.turn("send");
    expect(s.render().ids).toEqual(["R", s2, "u13", "a14", "u16", "a17"]);
    expect(s.l.get("a17").metadata["reads"]).toEqual(["R", s2, "u13", "a14", "u16"]);

    // "Restart": a fresh graph from the stored data alone agrees with what we saw.
    const graph = buildGraph(
      { ...s.l.session(s.head), meta: s.meta },
      s.l.nodes.map((n) => ({ ...n })),
    );
    expect(graph.activeSummaryId).toBe(s2);
    expect(graph.nodes.find((r) => r.id === s1)?.superseded_summary).toBe(true);
    expect(graph.nodes.filter((r) => r.foldedIn).map((r) => r.id)).toEqual(
      ids("a12 u13 a14 u16 a17"),
    );
    expect(graph.nodes.find((r) => r.id === retried)?.rawFork).toBe(true);
  });
});

function ids(spec: string) {
  return spec.split(" ").map(id);
}
