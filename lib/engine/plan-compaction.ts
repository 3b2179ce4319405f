import { contextTokens, messageTokens } from "./context-tokens";
import { EngineError } from "./errors";
import type { CompactionCounts } from "./events";
import { findCutIndex } from "./find-cut-index";
import { tokens, type NodeId, type Tokens } from "./ids";
import type { RenderedContext } from "./render-context";
import type { RenderedMessage } from "./render-message";
import { retireSummaries } from "./retire-summaries";
import { turnsOf, type SummaryLookup } from "./summary-turns";
import type { LedgerNode, SummaryPolicy } from "./types";

/** Fewer history messages than this (ROOT not counted) short-circuit with a notice. */
export const MIN_HISTORY_MESSAGES = 4;

/** One compaction's input: HEAD's spine, its rendering and the budget's kept window. */
export interface CompactionInput {
  /** The spine of the head being compacted, ROOT first. */
  readonly spine: readonly LedgerNode[];
  /** `renderContext` of that spine: the view the model currently reads (§4 step 1). */
  readonly rendering: RenderedContext;
  /**
   * The session's active summary, if any — chained only when the rendering admits it. The
   * one-summary form of `activeSummaries`, which takes precedence when given.
   */
  readonly activeSummary?: LedgerNode | null;
  /** The session's whole active set, every branch's, in order (compaction.md §7). */
  readonly activeSummaries?: readonly LedgerNode[];
  /** The summaries nested under the active ones, at every depth (as for `renderContext`). */
  readonly innerSummaries?: readonly LedgerNode[];
  /** How the session keeps its summaries; default `rolling-single`. */
  readonly policy?: SummaryPolicy;
  readonly keepRecentTokens: number;
  /**
   * Prompt tokens the summaries ahead of a new segment may cost (`segmented`): past it, the
   * compaction merges them with the new segment into one summary. Default: no limit.
   */
  readonly summariesBudget?: number;
  /**
   * What stays verbatim: `window` (auto and reactive compaction) keeps the longest tail that
   * fits `keepRecentTokens`; `latest-exchange` (a manual `/compact`, the user's explicit
   * ask) keeps only the newest user message and what follows it ([R200]). Default `window`.
   */
  readonly keep?: CompactionKeep;
}

/** Which tail a compaction keeps verbatim (see {@link CompactionInput.keep}). */
export type CompactionKeep = "window" | "latest-exchange";

/** Compaction has nothing to do; the pipeline shows `message` and writes nothing. */
export interface CompactionNotice {
  readonly kind: "notice";
  readonly code: "too_few_messages" | "nothing_to_compact";
  readonly message: string;
  readonly tokensBefore: Tokens;
}

/** A summary a compaction reads: one it absorbs, or one it is given as context. */
export interface SummaryInput {
  readonly id: NodeId;
  readonly text: string;
}

/** Everything the pipeline needs to summarise and persist one summary node. */
export interface CompactionWork {
  readonly kind: "compact";
  /** The slice to summarise, in prompt order; absorbed summaries first when chained. */
  readonly covered: readonly RenderedMessage[];
  /** The messages that stay verbatim after the new summary. */
  readonly kept: readonly RenderedMessage[];
  /**
   * The new `metadata.covers_ids`: a contiguous chain segment of real turns — or, for a
   * nested summary (`coversSummaries`), the summaries it stands in for.
   */
  readonly coversIds: readonly NodeId[];
  /** Whether `coversIds` names summaries (a nested summary, compaction.md §7). */
  readonly coversSummaries: boolean;
  /** The turns of `coversIds` that no previous summary covered. */
  readonly newlyCoveredIds: readonly NodeId[];
  /** The new summary's predecessor: the node just before the covered segment. */
  readonly predecessorId: NodeId;
  /**
   * The one summary this compaction absorbs (§4 step 3), when it absorbs exactly one —
   * always so under `rolling-single`; see `absorbed` for the general case.
   */
  readonly previousSummary: SummaryInput | null;
  /** Every summary the new one absorbs, in chain order; the summariser carries them over. */
  readonly absorbed: readonly SummaryInput[];
  /**
   * Earlier summaries that stay active before the new segment (`segmented`, `nested`): the
   * summariser may read them as context and must not repeat them.
   */
  readonly context: readonly SummaryInput[];
  /** Provenance of the summariser call: the context, then the covered slice (summary ids, not segments). */
  readonly reads: readonly NodeId[];
  /** The active set this plan was made against (the compare-and-swap's expectation). */
  readonly activeBefore: readonly NodeId[];
  /** The active set once the new summary lands, without it (see `insertAt`). */
  readonly activeAfter: readonly NodeId[];
  /** Where in `activeAfter` the new summary goes: the end, or a nest's first summary's place. */
  readonly insertAt: number;
  /** Active summaries that stop being active: absorbed, or overlapping the new segment. */
  readonly retired: readonly NodeId[];
  /** Prompt tokens of the rendering before compaction. */
  readonly tokensBefore: Tokens;
  /** Prompt tokens of everything but the new summary afterwards (ROOT, context, the kept tail). */
  readonly tokensWithoutSummary: Tokens;
  /** User turns in the kept tail, recorded on the summary for thrash detection. */
  readonly keptUserTurns: number;
  readonly counts: CompactionCounts;
}

/** Either nothing to do (with the notice to show) or the work to do. */
export type CompactionPlan = CompactionNotice | CompactionWork;

function notice(
  code: CompactionNotice["code"],
  message: string,
  tokensBefore: Tokens,
): CompactionNotice {
  return { kind: "notice", code, message, tokensBefore };
}

/** The summaries a plan may meet: the active set and everything nested under it. */
export interface KnownSummaries {
  readonly active: readonly LedgerNode[];
  readonly lookup: SummaryLookup;
}

export function knownSummaries(
  input: Pick<CompactionInput, "activeSummary" | "activeSummaries" | "innerSummaries">,
): KnownSummaries {
  const active = input.activeSummaries ?? (input.activeSummary ? [input.activeSummary] : []);
  const byId = new Map<NodeId, LedgerNode>();
  for (const s of input.innerSummaries ?? []) byId.set(s.id, s);
  for (const s of active) byId.set(s.id, s);
  return { active, lookup: (id) => byId.get(id) };
}

/**
 * Refuses a rendering that is not the spine's or that admits a summary the session no
 * longer has (stale input: it was read before another compaction or delete landed).
 */
export function checkFresh(
  spine: readonly LedgerNode[],
  rendering: RenderedContext,
  known: KnownSummaries,
): void {
  if (spine.at(-1)?.id !== rendering.headId) {
    throw new EngineError("invalid_request", "The rendering is not of this spine's head.");
  }
  for (const message of rendering.messages) {
    if (message.kind === "summary" && known.lookup(message.id) === undefined) {
      throw new EngineError(
        "invalid_request",
        `The rendering admits a stale summary ${message.id}.`,
      );
    }
  }
}

const toInput = (m: RenderedMessage, lookup: SummaryLookup): SummaryInput => ({
  id: m.id,
  text: lookup(m.id)?.content ?? "",
});

/**
 * Plans one compaction of the rendered view (compaction.md §4; issue 5). Pure: nothing is
 * written, and nothing existing is ever changed — the plan describes one new node.
 *
 * `rolling-single`: the covered slice starts right after ROOT, so the new summary hangs off
 * ROOT (the node before the segment), and the summary this rendering admits is covered and
 * chained: the new covers_ids is its segment extended with the newly covered turns; every
 * other summary stops being active (one per session). `segmented` and `nested`: the
 * summaries ahead of the first raw turn stay active and unchanged (the summariser reads them
 * as context); the new segment runs from just after them to the kept tail and hangs off the
 * node before it. A summary admitted after a raw turn (the raw stretch of a retired one lies
 * before it) is absorbed, and so are all of them when `segmented`'s summaries ahead cost
 * more than `summariesBudget`. An active summary of another branch whose segment overlaps the
 * new one is retired (docs/spec.md [R244]); one nesting it hands its place to the summaries
 * it names. A branch that renders raw chains nothing: it never inherits another branch's
 * summary. covers_ids is cut from the spine, so it stays a contiguous chain segment even
 * across nodes a rendering skips (notices, failed replies).
 *
 * @throws EngineError `invalid_request` when the rendering is not the spine's, or admits a
 *   summary that is not active (stale input).
 */
export function planCompaction(input: CompactionInput): CompactionPlan {
  const { spine, rendering } = input;
  const policy = input.policy ?? "rolling-single";
  const known = knownSummaries(input);
  const view = rendering.messages;
  const tokensBefore = contextTokens(view);
  checkFresh(spine, rendering, known);

  const history = view.length - 1;
  if (history < MIN_HISTORY_MESSAGES) {
    return notice(
      "too_few_messages",
      `Not enough conversation to compact yet: ${history} message${history === 1 ? "" : "s"}, at least ${MIN_HISTORY_MESSAGES} needed.`,
      tokensBefore,
    );
  }

  // The latest exchange alone is the shortest tail the cut rules allow: a budget of zero.
  const latest = input.keep === "latest-exchange";
  const cut = findCutIndex(view, latest ? 0 : input.keepRecentTokens);
  if (cut.kind === "nothing_to_compact") {
    return notice(
      "nothing_to_compact",
      latest
        ? "Nothing to compact: everything before the latest exchange is already summarised."
        : `Nothing to compact: the recent turns already fit the kept window of ${input.keepRecentTokens} tokens.`,
      tokensBefore,
    );
  }

  const slice = view.slice(1, cut.index);
  const kept = view.slice(cut.index);
  // Where the new segment starts: right after ROOT (rolling), or after the summaries that
  // lead the view (they stay) unless they have outgrown their budget (segmented merges).
  let from = 0;
  if (policy !== "rolling-single") {
    from = Math.max(
      0,
      slice.findIndex((m) => m.kind !== "summary"),
    );
    const ahead = contextTokens(slice.slice(0, from));
    if (
      policy === "segmented" &&
      input.summariesBudget !== undefined &&
      ahead > input.summariesBudget
    ) {
      from = 0;
    }
  }
  const context = slice.slice(0, from);
  const covered = slice.slice(from);

  const turnsOfMessage = (m: RenderedMessage): readonly NodeId[] => {
    if (m.kind !== "summary") return [m.id];
    const summary = known.lookup(m.id);
    const turns = summary === undefined ? null : turnsOf(summary, known.lookup);
    if (turns === null) {
      throw new EngineError("invalid_ledger", `Summary ${m.id} covers no known turns.`);
    }
    return turns;
  };
  const position = new Map<NodeId, number>();
  spine.forEach((node, i) => position.set(node.id, i));
  // The segment begins right after the last turn the context stands in for (ROOT when
  // there is no context) and runs to the last covered turn, taking along any spine node the
  // rendering skipped in between.
  let first = 1;
  for (const m of context) {
    for (const id of turnsOfMessage(m)) first = Math.max(first, (position.get(id) ?? 0) + 1);
  }
  const coveredTurns = covered.flatMap(turnsOfMessage);
  const lastTurn = coveredTurns.at(-1);
  const last = lastTurn === undefined ? -1 : (position.get(lastTurn) ?? -1);
  const before = spine[first - 1];
  if (last < first || before === undefined) {
    throw new EngineError("invalid_request", "The covered slice does not lie on the spine.");
  }
  const coversIds = spine
    .slice(first, last + 1)
    .filter((node) => node.kind !== "summary")
    .map((node) => node.id);

  const segment = new Set(coversIds);
  if (!coveredTurns.every((id) => segment.has(id))) {
    throw new EngineError("invalid_ledger", "The covered turns are not one chain segment.");
  }
  const absorbed = covered.filter((m) => m.kind === "summary");
  const previous = new Set(absorbed.flatMap(turnsOfMessage));
  const newlyCoveredIds = coversIds.filter((id) => !previous.has(id));
  const root = view[0];

  const activeBefore = known.active.map((s) => s.id);
  const after = retireSummaries(
    activeBefore,
    (summary) =>
      policy === "rolling-single" ||
      (turnsOf(summary, known.lookup) ?? []).some((id) => segment.has(id)),
    known.lookup,
  );
  const absorbedInputs = absorbed.map((m) => toInput(m, known.lookup));

  return {
    kind: "compact",
    covered,
    kept,
    coversIds,
    coversSummaries: false,
    newlyCoveredIds,
    predecessorId: before.id,
    previousSummary: absorbedInputs.length === 1 ? (absorbedInputs[0] ?? null) : null,
    absorbed: absorbedInputs,
    context: context.map((m) => toInput(m, known.lookup)),
    reads: [...context, ...covered].map((m) => m.id),
    activeBefore,
    activeAfter: after.active,
    insertAt: after.active.length,
    retired: after.retired,
    tokensBefore,
    tokensWithoutSummary: tokens(
      (root === undefined ? 0 : messageTokens(root)) + contextTokens(context) + cut.keptTokens,
    ),
    keptUserTurns: kept.filter((m) => m.kind === "user").length,
    counts: {
      covered: coversIds.length,
      newlyCovered: newlyCoveredIds.length,
      kept: kept.length,
    },
  };
}

/** The active set once `plan`'s summary `summaryId` has landed, in order. */
export function activeSetAfter(plan: CompactionWork, summaryId: NodeId): readonly NodeId[] {
  const at = Math.min(plan.insertAt, plan.activeAfter.length);
  return [...plan.activeAfter.slice(0, at), summaryId, ...plan.activeAfter.slice(at)];
}
