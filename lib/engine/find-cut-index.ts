import { messageTokens } from "./context-tokens";
import { tokens, type Tokens } from "./ids";
import type { RenderedMessage } from "./render-message";
import { pendingToolCallIndex } from "./pending-tool-call";

/** Where to split a rendered view into a covered slice and a kept tail. */
export type CutResult =
  | {
      readonly kind: "cut";
      /** The first kept index of the view: `view[1..index-1]` is covered, `view[index..]` kept. */
      readonly index: number;
      readonly coveredTokens: Tokens;
      readonly keptTokens: Tokens;
    }
  | {
      readonly kind: "nothing_to_compact";
      /**
       * `no_history`: the view is ROOT alone. `nothing_new`: the longest tail that fits
       * already holds every turn no summary covers.
       */
      readonly reason: "no_history" | "nothing_new";
    };

/**
 * Finds the cut of compaction.md §4 step 2 in a rendered view (`view[0]` is ROOT, then the
 * active summary if it applies, then turns). A cut point `c` is valid when all of these hold
 * — the valid points are the intersection of the rules:
 *
 * - the kept tail `view[c..]` fits `keepRecentTokens` (counted as in {@link contextTokens});
 * - it starts at a user turn, or is empty (the boundary before the next user message);
 * - every summary in the view lands on the covered side;
 * - no assistant tool call is separated from a tool result answering it;
 * - an assistant at the end of the view whose tool calls are not all answered yet stays kept
 *   (its results will land under it: covering it would leave them hanging off a summarised
 *   turn); one the conversation has moved on from is abandoned and may be covered;
 * - the newest user message stays kept (the model must answer the question, not a summary
 *   of it).
 *
 * The chosen cut is the smallest valid one: the longest tail that fits, snapped forward.
 * When that cut covers no turn beyond the previous summary there is nothing to compact.
 */
export function findCutIndex(
  view: readonly RenderedMessage[],
  keepRecentTokens: number,
): CutResult {
  const n = view.length;
  if (n <= 1) return { kind: "nothing_to_compact", reason: "no_history" };

  // suffix[i]: tokens of view[i..]; ROOT (index 0) is neither covered nor kept.
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 1; i -= 1) {
    const message = view[i];
    suffix[i] = (suffix[i + 1] ?? 0) + (message === undefined ? 0 : messageTokens(message));
  }

  // A tool pair (call at i, result at j) forbids every cut in (i, j]: mark with a
  // difference array so the check stays linear.
  const blocked = new Array<number>(n + 2).fill(0);
  const callAt = new Map<string, number>();
  let lastSummary = 0;
  view.forEach((message, i) => {
    if (i === 0) return;
    if (message.kind === "summary") lastSummary = i;
    for (const call of message.toolCalls ?? []) callAt.set(call.id, i);
    const callIndex = message.toolCallId === undefined ? undefined : callAt.get(message.toolCallId);
    if (callIndex !== undefined) {
      blocked[callIndex + 1] = (blocked[callIndex + 1] ?? 0) + 1;
      blocked[i + 1] = (blocked[i + 1] ?? 0) - 1;
    }
  });

  // The last cut allowed by the two "stays kept" rules.
  let maxCut = n;
  view.forEach((message, i) => {
    if (i === 0) return;
    if (message.kind === "user") maxCut = i;
  });
  // A call the conversation moved on from (its branch deleted, its writer dead) is
  // abandoned, and must not keep the rest of the branch from ever being compacted.
  const pending = pendingToolCallIndex(view);
  if (pending > 0) maxCut = Math.min(maxCut, pending);

  const budget = Math.max(0, keepRecentTokens);
  // The structural rules (user-turn boundary, summaries covered, tool pairs whole) decide
  // which cuts are allowed at all; the budget picks among them.
  const allowed = new Array<boolean>(n + 1).fill(false);
  let open = 0;
  for (let c = 1; c <= maxCut; c += 1) {
    open += blocked[c] ?? 0;
    const atUserTurn = c === n || view[c]?.kind === "user";
    allowed[c] = atUserTurn && c > lastSummary && open <= 0;
  }
  const cutAt = (c: number): CutResult => {
    const coversNewTurn = view.slice(1, c).some((message) => message.kind !== "summary");
    if (!coversNewTurn) return { kind: "nothing_to_compact", reason: "nothing_new" };
    return {
      kind: "cut",
      index: c,
      coveredTokens: tokens((suffix[1] ?? 0) - (suffix[c] ?? 0)),
      keptTokens: tokens(suffix[c] ?? 0),
    };
  };
  // The longest tail that fits…
  for (let c = 1; c <= maxCut; c += 1) {
    if (allowed[c] && (suffix[c] ?? 0) <= budget) return cutAt(c);
  }
  // …or, when what must stay kept is already over the budget, the shortest allowed tail.
  for (let c = maxCut; c >= 1; c -= 1) {
    if (allowed[c]) return cutAt(c);
  }
  // No cut satisfies every rule (the turns that must stay kept already fill the window).
  return { kind: "nothing_to_compact", reason: "nothing_new" };
}
