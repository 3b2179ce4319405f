import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildGraph } from "@/lib/engine/build-graph";
import { activeSetProblem } from "@/lib/engine/check-summaries";
import type { NodeId } from "@/lib/engine/ids";
import { createLedgerIndex } from "@/lib/engine/ledger-index";
import { expandReadsRef, readsRefOfRendering, type ReadsRef } from "@/lib/engine/reads-ref";
import { renderContext } from "@/lib/engine/render-context";
import { rendersInPlace } from "@/lib/engine/renders-in-place";
import { sentIds } from "@/lib/engine/sent-messages";
import { isSideLeafKind } from "@/lib/engine/side-leaf";
import { spineOf } from "@/lib/engine/spine-of";
import { turnsOf } from "@/lib/engine/summary-turns";
import { SUMMARY_POLICIES, type LedgerNode, type SummaryPolicy } from "@/lib/engine/types";
import { innerOf, PolicySession } from "./policy-session";

type Action =
  | { readonly kind: "send" }
  | { readonly kind: "retry" | "edit" | "checkout" | "delete"; readonly pick: number }
  | { readonly kind: "compact"; readonly keep: number; readonly budget: number }
  | { readonly kind: "grow"; readonly turns: number }
  | { readonly kind: "policy"; readonly policy: SummaryPolicy };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: "send" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom("retry" as const, "edit" as const, "checkout" as const),
      pick: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("compact" as const),
      keep: fc.constantFrom(0, 28, 60),
      budget: fc.constantFrom(40, 80, 1_000),
    }),
  },
  // A few exchanges and a compaction: long conversations, where nesting happens.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("grow" as const),
      turns: fc.integer({ min: 2, max: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("policy" as const),
      policy: fc.constantFrom(...SUMMARY_POLICIES),
    }),
  },
);

const conversation = (s: PolicySession) =>
  s.l.nodes.filter((n) => !isSideLeafKind(n.kind) && n.status !== "streaming");

function apply(s: PolicySession, a: Action, refs: Map<NodeId, ReadsRef>): void {
  const pickOf = (kind: string, pick: number) => {
    const list = conversation(s).filter((n) => n.kind === kind);
    return list[pick % Math.max(1, list.length)]?.id;
  };
  try {
    switch (a.kind) {
      case "send": {
        const reply = s.turn("send");
        const user = s.l.get(reply).predecessorId;
        if (user === null) return;
        const rendering = s.render(user);
        // The reply's reads are exactly what was sent, and so is its stored reference.
        expect(s.l.get(reply).metadata["reads"]).toEqual(sentIds(rendering));
        refs.set(reply, readsRefOfRendering(rendering, s.active()));
        return;
      }
      case "retry":
      case "edit": {
        const target = pickOf(a.kind === "retry" ? "assistant" : "user", a.pick);
        if (target !== undefined) s.turn(a.kind, target);
        return;
      }
      case "checkout": {
        const list = conversation(s);
        const target = list[a.pick % list.length];
        if (target !== undefined) s.checkout(target.id);
        return;
      }
      case "delete": {
        const tips = conversation(s).filter(
          (n) =>
            n.kind !== "root" &&
            !s.l.nodes.some((c) => c.predecessorId === n.id && !isSideLeafKind(c.kind)),
        );
        const tip = tips[a.pick % Math.max(1, tips.length)];
        if (tip !== undefined) s.deleteBranch(tip.id);
        return;
      }
      case "compact":
        s.compact(a.keep, a.budget);
        return;
      case "grow":
        for (let i = 0; i < a.turns; i += 1) apply(s, { kind: "send" }, refs);
        s.compact(28, 80);
        return;
      case "policy": {
        const before = conversation(s).map((n) => s.render(n.id).ids);
        s.setPolicy(a.policy);
        // Switching changes which summaries the next compaction keeps, not any rendering.
        expect(conversation(s).map((n) => s.render(n.id).ids)).toEqual(before);
        return;
      }
    }
  } catch (e) {
    // Refusals are part of the model (a retry of ROOT's child, a delete of HEAD's only
    // branch…); anything else is a failure.
    const code = (e as { code?: string }).code;
    if (code === undefined || code === "internal" || code === "invalid_ledger") throw e;
  }
}

/** Every invariant of compaction.md §3, §6, §7 and §8 that must hold after any step. */
function check(s: PolicySession, before: ReadonlyMap<NodeId, string>, refs: Map<NodeId, ReadsRef>) {
  const index = s.l.index();
  const active = s.active();
  const inner = innerOf(s.l, active);
  // Active segments are valid and disjoint.
  expect(activeSetProblem(s.activeIds(), index.get)).toBeNull();
  // No node is ever rewritten.
  for (const node of s.l.nodes) {
    const was = before.get(node.id);
    if (was !== undefined) expect(JSON.stringify(node)).toBe(was);
  }
  const graph = buildGraph(s.session(), s.l.nodes);
  const shuffled = createLedgerIndex([...s.l.nodes].reverse());
  const summaries = new Map<NodeId, LedgerNode>([...active, ...inner].map((n) => [n.id, n]));
  for (const node of conversation(s)) {
    const spine = spineOf(node.id, index.get);
    const rendering = renderContext({ spine, activeSummaries: active, innerSummaries: inner });
    // A pure function of the spine and the active set: the ledger's order and HEAD do not matter.
    const again = renderContext({
      spine: spineOf(node.id, shuffled.get),
      activeSummaries: [...active].reverse(),
      innerSummaries: [...inner].reverse(),
    });
    expect(again.ids).toEqual(rendering.ids);
    // Every turn of the spine is read once: in place, or under exactly one admitted summary
    // whose turns all lie on the spine, admitted where its segment begins.
    const position = new Map(spine.map((n, i) => [n.id, i]));
    const covered = new Map<NodeId, NodeId>();
    let cursor = -1;
    for (const message of rendering.messages) {
      if (message.kind !== "summary") {
        const at = position.get(message.id) ?? -1;
        expect(at).toBeGreaterThan(cursor);
        cursor = at;
        continue;
      }
      const summary = summaries.get(message.id);
      expect(summary).toBeDefined();
      const turns = summary === undefined ? [] : (turnsOf(summary, (i) => summaries.get(i)) ?? []);
      const at = turns.map((t) => position.get(t) ?? -1);
      expect(at.every((p, i) => p > cursor && (i === 0 || p === (at[i - 1] ?? 0) + 1))).toBe(true);
      for (const t of turns) {
        expect(covered.has(t)).toBe(false);
        covered.set(t, message.id);
      }
      cursor = at.at(-1) ?? cursor;
    }
    for (const n of spine) {
      if (n.kind === "root" || !rendersInPlace(n)) continue;
      expect(rendering.ids.includes(n.id) !== covered.has(n.id)).toBe(true);
    }
    // The capsule folds exactly where its summary renders.
    const row = graph.nodes.find((r) => r.id === node.id);
    expect(row?.foldedIn).toBe(rendering.messages.some((m) => m.kind === "summary"));
  }
  // Provenance: a surviving reply's reference still expands to exactly what it was sent.
  for (const [reply, ref] of refs) {
    const node = index.get(reply);
    if (node === undefined) {
      refs.delete(reply);
      continue;
    }
    expect(expandReadsRef(ref, index.get)).toEqual(node.metadata["reads"]);
  }
}

describe("properties under every policy (fast-check)", () => {
  for (const policy of SUMMARY_POLICIES) {
    it(`[R251] ${policy}: random chats, forks, checkouts, compactions, policy switches and branch deletes keep every invariant`, () => {
      // What the runs went through, so the property cannot pass by never compacting.
      const seen = { summaries: 0, sets: 0, nested: 0 };
      fc.assert(
        fc.property(fc.array(action, { minLength: 5, maxLength: 40 }), (actions) => {
          const s = new PolicySession(policy);
          const refs = new Map<NodeId, ReadsRef>();
          for (const a of actions) {
            const before = new Map(s.l.nodes.map((n) => [n.id, JSON.stringify(n)]));
            apply(s, a, refs);
            check(s, before, refs);
            if (s.activeIds().length > 1) seen.sets += 1;
          }
          for (const n of s.l.nodes) {
            if (n.kind === "summary") seen.summaries += 1;
            if (n.metadata.covers_summaries === true) seen.nested += 1;
          }
        }),
        { numRuns: 50 },
      );
      expect(seen.summaries).toBeGreaterThan(20);
      if (policy !== "rolling-single") expect(seen.sets).toBeGreaterThan(0);
      if (policy === "nested") expect(seen.nested).toBeGreaterThan(0);
    }, 120_000);
  }
});
