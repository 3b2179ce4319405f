import { contextTokens, messageTokens } from "./context-tokens";
import { coversIdsOf } from "./covers-ids-of";
import { EngineError } from "./errors";
import type { CompactionCounts } from "./events";
import { findCutIndex } from "./find-cut-index";
import { tokens, type NodeId, type Tokens } from "./ids";
import type { RenderedContext } from "./render-context";
import type { RenderedMessage } from "./render-message";
import type { LedgerNode } from "./types";

/** Fewer history messages than this (ROOT not counted) short-circuit with a notice. */
export const MIN_HISTORY_MESSAGES = 4;

/** One compaction's input: HEAD's spine, its rendering and the budget's kept window. */
export interface CompactionInput {
  /** The spine of the head being compacted, ROOT first. */
  readonly spine: readonly LedgerNode[];
  /** `renderContext` of that spine: the view the model currently reads (§4 step 1). */
  readonly rendering: RenderedContext;
  /** The session's active summary, if any — chained only when the rendering admits it. */
  readonly activeSummary: LedgerNode | null;
  readonly keepRecentTokens: number;
}

/** Compaction has nothing to do; the pipeline shows `message` and writes nothing. */
export interface CompactionNotice {
  readonly kind: "notice";
  readonly code: "too_few_messages" | "nothing_to_compact";
  readonly message: string;
  readonly tokensBefore: Tokens;
}

/** Everything the pipeline needs to summarise and persist one summary node. */
export interface CompactionWork {
  readonly kind: "compact";
  /** The slice to summarise, in prompt order; the previous summary first when chained. */
  readonly covered: readonly RenderedMessage[];
  /** The messages that stay verbatim after the new summary. */
  readonly kept: readonly RenderedMessage[];
  /** The new `metadata.covers_ids`: a contiguous chain segment of real turns. */
  readonly coversIds: readonly NodeId[];
  /** The ids of `coversIds` that no previous summary covered. */
  readonly newlyCoveredIds: readonly NodeId[];
  /** The new summary's predecessor: the node just before the covered segment. */
  readonly predecessorId: NodeId;
  /** The summary to chain (§4 step 3); only ever the one this rendering admits. */
  readonly previousSummary: { readonly id: NodeId; readonly text: string } | null;
  /** Provenance of the summariser call: the covered slice's ids (a summary's, not its segment). */
  readonly reads: readonly NodeId[];
  /** Prompt tokens of the rendering before compaction. */
  readonly tokensBefore: Tokens;
  /** Prompt tokens of everything but the new summary afterwards (ROOT and the kept tail). */
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

/**
 * Plans one compaction of the rendered view (compaction.md §4; issue 5). Pure: nothing is
 * written, and nothing existing is ever changed — the plan describes one new node.
 *
 * The covered slice always starts right after ROOT, so the new summary hangs off ROOT (the
 * node before the segment), and the previous summary — when this rendering admits it — is
 * covered and chained: the new covers_ids is its segment extended with the newly covered
 * turns. A branch that renders raw chains nothing: it never inherits another branch's
 * summary. covers_ids is cut from the spine, so it stays a contiguous chain segment even
 * across nodes a rendering skips (notices, failed replies).
 *
 * @throws EngineError `invalid_request` when the rendering is not the spine's, or admits a
 *   summary other than `activeSummary` (stale input).
 */
export function planCompaction(input: CompactionInput): CompactionPlan {
  const { spine, rendering, activeSummary } = input;
  const view = rendering.messages;
  const tokensBefore = contextTokens(view);
  if (spine.at(-1)?.id !== rendering.headId) {
    throw new EngineError("invalid_request", "The rendering is not of this spine's head.");
  }
  for (const message of view) {
    if (message.kind === "summary" && message.id !== activeSummary?.id) {
      throw new EngineError(
        "invalid_request",
        `The rendering admits a stale summary ${message.id}.`,
      );
    }
  }

  const history = view.length - 1;
  if (history < MIN_HISTORY_MESSAGES) {
    return notice(
      "too_few_messages",
      `Not enough conversation to compact yet: ${history} message${history === 1 ? "" : "s"}, at least ${MIN_HISTORY_MESSAGES} needed.`,
      tokensBefore,
    );
  }

  const cut = findCutIndex(view, input.keepRecentTokens);
  if (cut.kind === "nothing_to_compact") {
    return notice(
      "nothing_to_compact",
      `Nothing to compact: the recent turns already fit the kept window of ${input.keepRecentTokens} tokens.`,
      tokensBefore,
    );
  }

  const covered = view.slice(1, cut.index);
  const kept = view.slice(cut.index);
  const chained = activeSummary !== null && covered.some((m) => m.id === activeSummary.id);
  const previousCovers = chained ? coversIdsOf(activeSummary) : [];

  // The covered turns in chain order, the summary replaced by its own segment.
  const coveredTurns = covered.flatMap((m) => (m.kind === "summary" ? previousCovers : [m.id]));
  // The segment runs from just after ROOT (the covered slice starts there) to the last
  // covered turn, taking along any spine node the rendering skipped in between.
  const last = spine.findIndex((node) => node.id === coveredTurns.at(-1));
  const before = spine[0];
  if (last < 1 || before === undefined) {
    throw new EngineError("invalid_request", "The covered slice does not lie on the spine.");
  }
  const coversIds = spine
    .slice(1, last + 1)
    .filter((node) => node.kind !== "summary")
    .map((node) => node.id);

  const segment = new Set(coversIds);
  if (!coveredTurns.every((id) => segment.has(id))) {
    throw new EngineError("invalid_ledger", "The covered turns are not one chain segment.");
  }
  const previous = new Set(previousCovers);
  const newlyCoveredIds = coversIds.filter((id) => !previous.has(id));
  const root = view[0];

  return {
    kind: "compact",
    covered,
    kept,
    coversIds,
    newlyCoveredIds,
    predecessorId: before.id,
    previousSummary: chained ? { id: activeSummary.id, text: activeSummary.content } : null,
    reads: covered.map((m) => m.id),
    tokensBefore,
    tokensWithoutSummary: tokens((root === undefined ? 0 : messageTokens(root)) + cut.keptTokens),
    keptUserTurns: kept.filter((m) => m.kind === "user").length,
    counts: {
      covered: coversIds.length,
      newlyCovered: newlyCoveredIds.length,
      kept: kept.length,
    },
  };
}
