import { contextTokens } from "./context-tokens";
import { tokens, type NodeId } from "./ids";
import {
  checkFresh,
  knownSummaries,
  type CompactionInput,
  type CompactionWork,
} from "./plan-compaction";
import type { RenderedMessage } from "./render-message";
import { turnsOf } from "./summary-turns";

/** What the nesting step of `nested` reads: a head's view after its segment compaction. */
export type NestingInput = Pick<
  CompactionInput,
  "spine" | "rendering" | "activeSummaries" | "innerSummaries"
> & {
  /** Prompt tokens the summaries a rendering admits may cost before the oldest are nested. */
  readonly summariesBudget: number;
};

/** A nest folds at least this many summaries (one alone would only be summarised again). */
export const MIN_NESTED_SUMMARIES = 2;

/**
 * The nesting step of the `nested` policy (compaction.md §7, "a summary of summaries"): when
 * the summaries a rendering admits cost more than `summariesBudget`, all but the newest of
 * the run of active summaries that leads the view are summarised into one summary whose
 * covers_ids name them (`coversSummaries`). It hangs where their segment began, takes the
 * first one's place in the active set, and they stop being active (a rendering still
 * reaches them through it, where it does not apply whole). `null` when nothing needs
 * nesting. Pure, like {@link planCompaction}, and it plans exactly one node.
 *
 * @throws EngineError `invalid_request` for stale input, as {@link planCompaction}.
 */
export function planNesting(input: NestingInput): CompactionWork | null {
  const { spine, rendering } = input;
  const known = knownSummaries(input);
  checkFresh(spine, rendering, known);
  const view = rendering.messages;
  const activeIds = new Set(known.active.map((s) => s.id));
  const admitted = view.filter((m) => m.kind === "summary" && activeIds.has(m.id));
  if (contextTokens(admitted) <= input.summariesBudget) return null;

  const position = new Map<NodeId, number>();
  spine.forEach((node, i) => position.set(node.id, i));
  // The run of active summaries right after ROOT whose segments follow each other.
  const run: { readonly message: RenderedMessage; readonly turns: readonly NodeId[] }[] = [];
  let next: number | undefined;
  for (const message of view.slice(1)) {
    if (message.kind !== "summary" || !activeIds.has(message.id)) break;
    const summary = known.lookup(message.id);
    const own = summary === undefined ? null : turnsOf(summary, known.lookup);
    const first = own?.[0];
    const last = own?.at(-1);
    const start = first === undefined ? undefined : position.get(first);
    const end = last === undefined ? undefined : position.get(last);
    if (own === null || start === undefined || end === undefined) break;
    if (next !== undefined && start !== next) break;
    run.push({ message, turns: own });
    next = end + 1;
  }
  const nested = run.slice(0, -1);
  const firstTurn = nested[0]?.turns[0];
  const before = firstTurn === undefined ? undefined : spine[(position.get(firstTurn) ?? 0) - 1];
  if (nested.length < MIN_NESTED_SUMMARIES || before === undefined) return null;

  const messages = nested.map((n) => n.message);
  const ids = messages.map((m) => m.id);
  const gone = new Set<NodeId>(ids);
  const activeBefore = known.active.map((s) => s.id);
  const activeAfter = activeBefore.filter((id) => !gone.has(id));
  const kept = view.slice(1).filter((m) => !gone.has(m.id));
  const inputs = messages.map((m) => ({ id: m.id, text: known.lookup(m.id)?.content ?? "" }));
  const tokensBefore = contextTokens(view);

  return {
    kind: "compact",
    covered: messages,
    kept,
    coversIds: ids,
    coversSummaries: true,
    newlyCoveredIds: [],
    predecessorId: before.id,
    previousSummary: null,
    absorbed: inputs,
    context: [],
    reads: ids,
    activeBefore,
    activeAfter,
    // The nest takes the place of the first summary it folds.
    insertAt: Math.max(
      0,
      activeBefore.findIndex((id) => gone.has(id)),
    ),
    retired: ids,
    tokensBefore,
    tokensWithoutSummary: tokens(tokensBefore - contextTokens(messages)),
    keptUserTurns: kept.filter((m) => m.kind === "user").length,
    counts: {
      covered: nested.reduce((sum, n) => sum + n.turns.length, 0),
      newlyCovered: 0,
      kept: kept.length,
    },
  };
}
