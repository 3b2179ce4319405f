import { describe, expect, it } from "vitest";
import { buildGraph } from "@/lib/engine/build-graph";
import { createLedgerIndex, type LedgerIndex } from "@/lib/engine/ledger-index";
import { branchTop, planDeleteBranch } from "@/lib/engine/plan-delete-branch";
import { renderContext } from "@/lib/engine/render-context";
import { activeSummaries, activeSummaryIds } from "@/lib/engine/active-summaries";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { codeOf, id, ledger } from "./helpers";

/**
 * R → u1 a1 u2 a2 u3 a3 (main), a fork a1 → u2b a2b, a spawned task branch off a3
 * (uT, aT; uT's caller is a3) and a notice off a3. S covers u1..a2.
 */
function world() {
  const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3").chain("a1", "u2b a2b");
  l.add("uT", "user", "a3", { callerId: "a3" });
  l.chain("uT", "aT");
  l.add("n1", "notice", "a3");
  l.summary("S", ["u1", "a1", "u2", "a2"]);
  return l;
}

describe("deleteBranch planning", () => {
  it("[R27] removes the tip, every ancestor only it holds, and what hangs off them", () => {
    const l = world();
    const plan = planDeleteBranch({ session: l.session("a2b"), index: l.index(), tipId: id("a3") });
    expect(plan.ids).toEqual(ids("u2 a2 u3 a3 uT aT n1"));
    expect(plan.forkPointId).toBe("a1");
    const survivors = l.nodes.filter((n) => !plan.ids.includes(n.id));
    const alive = new Set(survivors.map((n) => n.id));
    for (const node of survivors) {
      if (node.predecessorId !== null) expect(alive.has(node.predecessorId)).toBe(true);
    }
    expect(alive.has(id("R"))).toBe(true);
  });

  it("[R27] a fork is removed up to its fork point; a lone line up to ROOT, never ROOT", () => {
    const l = world();
    const fork = planDeleteBranch({ session: l.session("a3"), index: l.index(), tipId: id("a2b") });
    expect(fork.ids).toEqual(ids("u2b a2b"));
    expect(fork.forkPointId).toBe("a1");

    const line = ledger().chain("R", "u1 a1 u2 a2");
    const all = planDeleteBranch({
      session: line.session("a2"),
      index: line.index(),
      tipId: id("a2"),
    });
    expect(all.ids).toEqual(ids("u1 a1 u2 a2"));
    expect(all.forkPointId).toBe("R");
  });

  it("[R28] HEAD moves to the fork point only when it was removed", () => {
    const l = world();
    const inside = planDeleteBranch({
      session: l.session("u3"),
      index: l.index(),
      tipId: id("a3"),
    });
    expect(inside).toMatchObject({ headAfter: id("a1"), headMoves: true });
    const inTask = planDeleteBranch({
      session: l.session("aT"),
      index: l.index(),
      tipId: id("a3"),
    });
    expect(inTask).toMatchObject({ headAfter: id("a1"), headMoves: true });
    const outside = planDeleteBranch({
      session: l.session("a2b"),
      index: l.index(),
      tipId: id("a3"),
    });
    expect(outside).toMatchObject({ headAfter: id("a2b"), headMoves: false });
    const above = planDeleteBranch({ session: l.session("a1"), index: l.index(), tipId: id("a3") });
    expect(above).toMatchObject({ headAfter: id("a1"), headMoves: false });
  });

  it("[R29] ROOT, summaries, notices and nodes with branches below are not deletable tips", () => {
    const l = world();
    const plan = (tip: string) => () =>
      planDeleteBranch({ session: l.session("a3"), index: l.index(), tipId: id(tip) });
    expect(codeOf(plan("R"))).toBe("node_not_deletable");
    expect(codeOf(plan("S"))).toBe("node_not_deletable");
    expect(codeOf(plan("n1"))).toBe("node_not_deletable");
    expect(codeOf(plan("a1"))).toBe("not_a_branch_tip");
    expect(codeOf(plan("u3"))).toBe("not_a_branch_tip");
    expect(codeOf(plan("zz"))).toBe("node_not_found");
    // a task branch's own tip is deletable on its own: it hangs off a3.
    expect(
      planDeleteBranch({ session: l.session("a3"), index: l.index(), tipId: id("aT") }).ids,
    ).toEqual(ids("uT aT"));
  });

  it("[R29] a branch with a streaming reply is turn_in_progress", () => {
    const l = world();
    l.add("a4", "assistant", "a2b", { status: "streaming" });
    expect(
      codeOf(() =>
        planDeleteBranch({ session: l.session("a4"), index: l.index(), tipId: id("a4") }),
      ),
    ).toBe("turn_in_progress");
  });

  it("[R30] deleting part of the active summary's segment retires it", () => {
    const l = world();
    const session = l.session("a3", "S", {
      _last_summary_text: "summary S",
      settings: { model: "m" },
    });
    const plan = planDeleteBranch({ session, index: l.index(), tipId: id("a3") });
    expect(plan.retiredSummaryIds).toEqual(["S"]);
    expect(plan.metaAfter).toEqual({ settings: { model: "m" } });

    // Applied: every surviving branch renders raw and the graph shows S as a relic.
    const survivors = l.nodes.filter((n) => !plan.ids.includes(n.id));
    const index = createLedgerIndex(survivors);
    const meta = plan.metaAfter ?? session.meta;
    const r = renderContext({
      spine: [index.get(id("R"))!, index.get(id("u1"))!, index.get(id("a1"))!],
      activeSummaries: activeSummaries(meta, index.get),
    });
    expect(r.ids).toEqual(ids("R u1 a1"));
    const graph = buildGraph({ ...session, headId: plan.headAfter, meta }, survivors);
    expect(graph.activeSummaryId).toBeNull();
    expect(graph.nodes.find((n) => n.id === "S")?.superseded_summary).toBe(true);
  });

  it("[R30] deleting a branch outside the segment leaves the active summary alone", () => {
    const l = world();
    const session = l.session("a3", "S", { _last_summary_text: "summary S" });
    const plan = planDeleteBranch({ session, index: l.index(), tipId: id("a2b") });
    expect(plan.retiredSummaryIds).toEqual([]);
    expect(plan).not.toHaveProperty("metaAfter");
  });
});

function ids(spec: string) {
  return spec.split(" ").map(asNodeId);
}

/**
 * What the store loads for a delete (SessionStore.removeNodes through the dispatcher): the
 * tip's spine with every child of its nodes, the subtree under the branch's top, and the
 * active summaries.
 */
function sliceFor(index: LedgerIndex, session: SessionRecord, tipId: NodeId): LedgerIndex {
  const picked = new Map<NodeId, LedgerNode>();
  const add = (n: LedgerNode | undefined) => n && picked.set(n.id, n);
  for (let n = index.get(tipId); n; n = n.predecessorId ? index.get(n.predecessorId) : undefined) {
    add(n);
    index.childrenOf(n.id).forEach(add);
  }
  const { top } = branchTop({ session, index: createLedgerIndex([...picked.values()]), tipId });
  const stack = [top];
  while (stack.length > 0) {
    const n = stack.pop() as LedgerNode;
    add(n);
    stack.push(...index.childrenOf(n.id));
  }
  for (const s of activeSummaryIds(session.meta)) add(index.get(s));
  return createLedgerIndex([...picked.values()]);
}

describe("deleteBranch over the slice the store loads", () => {
  it("[R116] decides exactly as over the whole ledger, for every tip, HEAD and summary", () => {
    const l = world();
    l.chain("a2b", "u3b a3b");
    l.add("n2", "notice", "u3b");
    l.chain("u1", "a1c");
    l.summary("S2", ["u1", "a1"]);
    const whole = l.index();
    const conversation = l.nodes.filter((n) => n.kind !== "summary" && n.kind !== "notice");
    let compared = 0;
    for (const tip of conversation) {
      for (const head of conversation) {
        for (const summary of [undefined, "S", "S2"]) {
          const session = l.session(head.id, summary);
          const run = (index: LedgerIndex) => {
            try {
              return planDeleteBranch({ session, index, tipId: tip.id });
            } catch (e) {
              return { code: (e as { code?: string }).code };
            }
          };
          let slice: LedgerIndex;
          try {
            slice = sliceFor(whole, session, tip.id);
          } catch (e) {
            // branchTop refuses before the subtree is read: the same refusal as the plan.
            expect(run(whole)).toEqual({ code: (e as { code?: string }).code });
            continue;
          }
          expect(run(slice), `${tip.id} head ${head.id} ${summary}`).toEqual(run(whole));
          expect(slice.nodes.length).toBeLessThanOrEqual(whole.nodes.length);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("[R116] the slice of a short branch is small in a big ledger", () => {
    const l = ledger().chain("R", "u1 a1");
    // 200 dead branches off a1, each two turns long, and the one to delete.
    for (let i = 0; i < 200; i++) l.chain("a1", `u${i}x a${i}x`);
    l.chain("a1", "uz az");
    const session = l.session("az");
    const slice = sliceFor(l.index(), session, id("az"));
    // R, u1, a1, the 201 children of a1, and az under uz.
    expect(slice.nodes.length).toBe(3 + 201 + 1);
    expect(planDeleteBranch({ session, index: slice, tipId: id("az") }).ids).toEqual(ids("uz az"));
  });
});
