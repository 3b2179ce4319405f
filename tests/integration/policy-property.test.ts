import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import type { Compactor } from "@/lib/compaction/compactor";
import type { Dispatcher } from "@/lib/dispatcher/dispatcher";
import { activeSummaries, activeSummaryIds } from "@/lib/engine/active-summaries";
import { activeSetProblem } from "@/lib/engine/check-summaries";
import { isEngineError } from "@/lib/engine/errors";
import type { NodeId, SessionId } from "@/lib/engine/ids";
import { createLedgerIndex } from "@/lib/engine/ledger-index";
import { renderContext } from "@/lib/engine/render-context";
import { spineOf } from "@/lib/engine/spine-of";
import { innerSummariesOf } from "@/lib/engine/summary-turns";
import { SUMMARY_POLICIES, type LedgerNode, type SummaryPolicy } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { userMessage, wireCompaction } from "./support/compaction-helpers";

/**
 * [R257] The policies' property test on a real store, SQLite and PostgreSQL: random chats,
 * edits, retries, checkouts, compactions, policy switches and branch deletes through the
 * dispatcher and the compactor; after every step the active set is valid, the dispatcher's
 * rendering of every turn equals the engine's rendering of the whole ledger as stored, and
 * no node written earlier has changed. The runs are checked to have compacted (and, under
 * `segmented` and `nested`, to have held two summaries at once), so the property is not
 * vacuous. The engine-level property test ([R251]) runs many more
 * cases without a database; this one proves the store and the write path keep them.
 */

type Op =
  | { readonly kind: "send" }
  | { readonly kind: "edit"; readonly pick: number }
  | { readonly kind: "retry"; readonly pick: number }
  | { readonly kind: "checkout"; readonly pick: number }
  | { readonly kind: "compact" }
  | { readonly kind: "policy"; readonly policy: SummaryPolicy }
  | { readonly kind: "delete"; readonly pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Op>({ kind: "send" }) },
  { weight: 1, arbitrary: fc.nat(1000).map<Op>((pick) => ({ kind: "edit", pick })) },
  { weight: 1, arbitrary: fc.nat(1000).map<Op>((pick) => ({ kind: "retry", pick })) },
  { weight: 1, arbitrary: fc.nat(1000).map<Op>((pick) => ({ kind: "checkout", pick })) },
  { weight: 3, arbitrary: fc.constant<Op>({ kind: "compact" }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...SUMMARY_POLICIES)
      .map<Op>((policy) => ({ kind: "policy", policy })),
  },
  { weight: 1, arbitrary: fc.nat(1000).map<Op>((pick) => ({ kind: "delete", pick })) },
);

/** Refusals a random step may meet; anything else is a failure. */
const EXPECTED = new Set([
  "compaction_not_needed",
  "summary_not_smaller",
  "node_not_deletable",
  "not_a_branch_tip",
  "node_not_checkoutable",
  "invalid_target",
]);

describeEachDatabase("[R257] the policies' invariants on a real store", (kind) => {
  let store: SessionStore;
  let dispatcher: Dispatcher;
  let compactor: Compactor;
  useFreshStore(kind, (env) => ({ store } = env));
  beforeAll(() => {
    ({ dispatcher, compactor } = wireCompaction(store));
  });

  async function check(id: SessionId, written: Map<NodeId, LedgerNode>): Promise<void> {
    const [nodes, record] = await Promise.all([store.nodes(id), store.getSession(id)]);
    const index = createLedgerIndex(nodes);
    expect(activeSetProblem(activeSummaryIds(record.meta), index.get)).toBeNull();
    expect(record.headId === null || index.get(record.headId) !== undefined).toBe(true);
    const active = activeSummaries(record.meta, index.get);
    const inner = innerSummariesOf(active, index.get);
    for (const node of nodes) {
      const before = written.get(node.id);
      if (before !== undefined && before.status !== "streaming") expect(node).toEqual(before);
      written.set(node.id, node);
      if (node.kind !== "user" && node.kind !== "assistant") continue;
      const expected = renderContext({
        spine: spineOf(node.id, index.get),
        activeSummaries: active,
        innerSummaries: inner,
      }).ids;
      expect((await dispatcher.context(id, node.id)).ids).toEqual(expected);
    }
  }

  for (const policy of SUMMARY_POLICIES) {
    it(`[R257] ${policy}: every step keeps the set valid, the renderings the engine's, and every node as written`, async () => {
      let run = 0;
      let compactions = 0;
      let widest = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 12, maxLength: 24 }), async (ops) => {
          const s = await store.createSession({ title: `${policy} ${run++}` });
          const id = s.id;
          await store.updateMeta(id, (m) => ({
            ...m,
            settings: { keepRecentTokens: 60, contextWindow: 2048, autoCompact: false, policy },
          }));
          const written = new Map<NodeId, LedgerNode>();
          let turn = 0;
          const pickOf = async (pick: number, kinds: readonly string[]) => {
            const nodes = (await store.nodes(id)).filter((n) => kinds.includes(n.kind));
            return nodes.length === 0 ? undefined : nodes[pick % nodes.length];
          };
          for (const step of ops) {
            try {
              if (step.kind === "send") {
                await dispatcher.runTurn({
                  sessionId: id,
                  mode: "send",
                  content: userMessage(turn++),
                });
              } else if (step.kind === "edit") {
                const target = await pickOf(step.pick, ["user"]);
                if (target) {
                  await dispatcher.runTurn({
                    sessionId: id,
                    mode: "edit",
                    targetId: target.id,
                    content: `Edited: ${userMessage(turn++)}`,
                  });
                }
              } else if (step.kind === "retry") {
                const target = await pickOf(step.pick, ["assistant"]);
                if (target)
                  await dispatcher.runTurn({ sessionId: id, mode: "retry", targetId: target.id });
              } else if (step.kind === "checkout") {
                const target = await pickOf(step.pick, ["user", "assistant"]);
                if (target) await dispatcher.checkout(id, target.id);
              } else if (step.kind === "compact") {
                const result = await compactor.compact(await store.getSession(id));
                if (result.summary !== null) compactions += 1;
              } else if (step.kind === "policy") {
                await store.updateMeta(id, (m) => ({
                  ...m,
                  settings: { ...m.settings, policy: step.policy },
                }));
              } else {
                const nodes = await store.nodes(id);
                const leaves = nodes.filter(
                  (n) =>
                    n.kind === "assistant" &&
                    !nodes.some((c) => c.predecessorId === n.id && c.kind !== "summary"),
                );
                const tip = leaves[step.pick % Math.max(1, leaves.length)];
                if (tip) {
                  const { removed } = await dispatcher.deleteBranch(id, tip.id);
                  for (const gone of removed) written.delete(gone);
                }
              }
            } catch (error) {
              if (!isEngineError(error) || !EXPECTED.has(error.code)) throw error;
            }
            await check(id, written);
            const set = activeSummaryIds((await store.getSession(id)).meta);
            widest = Math.max(widest, set.length);
          }
        }),
        { numRuns: kind === "sqlite" ? 4 : 3, seed: 2301, endOnFailure: true },
      );
      console.log(`[R257] ${kind} ${policy}: ${compactions} compactions, widest set ${widest}`);
      expect(compactions).toBeGreaterThan(0);
      if (policy !== "rolling-single") expect(widest).toBeGreaterThanOrEqual(2);
    }, 240_000);
  }
});
