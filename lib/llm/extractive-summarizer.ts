/**
 * The offline summariser: extractive, deterministic, and real. From the covered slice it
 * keeps the goal, every user request verbatim, the first sentence of each assistant turn,
 * the artifacts mentioned, the open questions and the next step; it absorbs a previous
 * summary by carrying its sections forward (compaction.md §1: one rolling summary).
 *
 * Budget rule: user requests come first. Only when everything does not fit are the other
 * sections thinned (oldest items first) and then the longest requests cut, each cut marked.
 */
import {
  emptySummary,
  parseSummary,
  renderItem,
  renderSummary,
  type SummaryDocument,
} from "./summary-document";
import { summaryTextOf } from "./summary-marker";
import {
  artifacts,
  firstSentence,
  isAnswered,
  mergeArtifacts,
  oneLine,
  questions,
  sentences,
} from "./text-extract";
import { countTokens, truncateToTokens } from "./tokens";
import type { ChatMessage, Summarizer, SummaryRequest } from "./types";

/** Share of the budget the non-request sections may claim when requests must be cut. */
const OTHER_SECTIONS_SHARE = 0.3;
/** A truncated request keeps at least this many tokens: less says nothing. */
const MIN_REQUEST_TOKENS = 16;

const FUTURE = /\b(next|then|will|should|plan|let's|todo|going to)\b/i;

function cost(text: string): number {
  return countTokens(`${text}\n`);
}

/** Builds the full, un-budgeted document from the slice and the previous summary. */
export function extractSummary(
  messages: readonly ChatMessage[],
  previousSummary?: string,
  context?: string,
): SummaryDocument {
  const carried = messages.map((m) => summaryTextOf(m.content)).find((t) => t !== undefined);
  const previousText = previousSummary ?? carried;
  const prev = previousText === undefined ? emptySummary() : parseSummary(previousText);
  const turns = messages.filter((m) => summaryTextOf(m.content) === undefined);

  const requests = turns.filter((m) => m.role === "user").map((m) => m.content.trim());
  const facts: string[] = [];
  const open: string[] = [];
  turns.forEach((m, i) => {
    const laterAnswers = turns
      .slice(i + 1)
      .filter((t) => t.role === "assistant")
      .map((t) => t.content);
    if (m.role === "user") {
      open.push(...questions(m.content).filter((q) => !isAnswered(q, laterAnswers)));
    } else if (m.role === "assistant") {
      const first = firstSentence(m.content);
      if (first !== undefined) facts.push(first);
      for (const call of m.tool_calls ?? []) {
        facts.push(`Called ${call.name}(${oneLine(call.arguments).slice(0, 80)}).`);
      }
    } else if (m.role === "tool") {
      const first = firstSentence(m.content);
      if (first !== undefined) facts.push(`Tool result: ${first}`);
    }
  });
  const assistantTexts = turns.filter((m) => m.role === "assistant").map((m) => m.content);
  const stillOpen = prev.openQuestions.filter((q) => !isAnswered(q, assistantTexts));

  // A segment after earlier summaries serves the goal they state (they stay in context).
  const earlierGoal = context === undefined ? "" : parseSummary(context).goal;
  const goal = prev.goal || earlierGoal || oneLine(firstSentence(requests[0] ?? "", 20) ?? "");
  return {
    goal: goal || "(not stated)",
    requests: [...prev.requests, ...requests.filter((r) => r.length > 0)],
    omittedRequests: prev.omittedRequests,
    facts: [...prev.facts, ...facts],
    artifacts: mergeArtifacts(prev.artifacts, ...turns.map((m) => artifacts(m.content))),
    openQuestions: [...new Set([...stillOpen, ...open])],
    nextStep: nextStep(turns, prev),
    earlier: prev.earlier,
  };
}

function nextStep(turns: readonly ChatMessage[], prev: SummaryDocument): string {
  const last = turns.at(-1);
  if (last?.role === "user") {
    return `Answer the latest request: ${oneLine(firstSentence(last.content, 20) ?? "")}`;
  }
  const lastAssistant = [...turns].reverse().find((m) => m.role === "assistant");
  const intent = lastAssistant
    ? sentences(lastAssistant.content).findLast((s) => FUTURE.test(s))
    : undefined;
  if (intent !== undefined) return oneLine(firstSentence(intent, 30) ?? intent);
  if (prev.nextStep) return prev.nextStep;
  const lastUser = [...turns].reverse().find((m) => m.role === "user");
  return lastUser
    ? `Continue from the latest request: ${oneLine(firstSentence(lastUser.content, 20) ?? "")}`
    : "Continue the conversation.";
}

/** Rough cost of the "[…truncated: N of M tokens omitted]" marker; the final check is exact. */
const MARKER_TOKENS = 16;

/** Tokens a request of `n` keeps under `cap`: cutting one barely over the cap saves nothing. */
function cutLength(n: number, cap: number): number {
  return n > cap + MARKER_TOKENS ? cap + MARKER_TOKENS : n;
}

/** Cuts `text` to `maxTokens`, saying how much was cut (not at all if the marker would cost more). */
function truncateMarked(text: string, maxTokens: number): string {
  const total = countTokens(text);
  if (total <= maxTokens + MARKER_TOKENS) return text;
  const kept = truncateToTokens(text, maxTokens);
  return `${kept} […truncated: ${total - countTokens(kept)} of ${total} tokens omitted]`;
}

/**
 * Fits requests into `share` tokens: first drop the oldest whole (counted) until even the
 * minimum cap fits, then find the largest cap that lets every request keep up to `cap`
 * tokens, so the longest requests are the ones cut. Costs are estimated from one count per
 * request; `fitToBudget` checks the rendered result exactly.
 */
function fitRequests(
  requests: readonly string[],
  share: number,
): { requests: string[]; dropped: number } {
  const lengths = requests.map((r) => countTokens(r));
  const lines = requests.map((r) => r.split("\n").length);
  const estimate = (cap: number, from: number) =>
    lengths
      .slice(from)
      .reduce((sum, n, i) => sum + cutLength(n, cap) + (lines[from + i] ?? 1) + 1, 0);
  const longest = Math.max(0, ...lengths);
  if (estimate(longest, 0) <= share) return { requests: [...requests], dropped: 0 };
  let dropped = 0;
  while (dropped < requests.length && estimate(MIN_REQUEST_TOKENS, dropped) > share) dropped++;
  let lo = MIN_REQUEST_TOKENS;
  let hi = longest;
  let cap = MIN_REQUEST_TOKENS;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (estimate(mid, dropped) <= share) {
      cap = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return { requests: requests.slice(dropped).map((r) => truncateMarked(r, cap)), dropped };
}

/** Keeps the newest items of a list that fit `share` tokens, in their original order. */
function newestThatFit<T>(list: readonly T[], share: number, render: (item: T) => string): T[] {
  const kept: T[] = [];
  let used = 0;
  for (const item of [...list].reverse()) {
    const c = cost(render(item));
    if (used + c > share) break;
    kept.unshift(item);
    used += c;
  }
  return kept;
}

const itemsCost = <T>(list: readonly T[], render: (item: T) => string): number =>
  list.reduce((sum, item) => sum + cost(render(item)), 0);

/** The document within `budget` tokens (see the module comment for the order of cuts). */
export function fitToBudget(doc: SummaryDocument, budget: number): string {
  const full = renderSummary(doc);
  if (countTokens(full) <= budget) return full;
  const skeleton = {
    ...doc,
    requests: [],
    facts: [],
    artifacts: [],
    openQuestions: [],
    earlier: undefined,
  };
  // Slack for the blank lines, headings and omission notes the item costs do not include.
  let available = budget - countTokens(renderSummary(skeleton)) - 8;
  for (let attempt = 0; attempt < 6 && available > 0; attempt++) {
    const otherShare = Math.floor(available * OTHER_SECTIONS_SHARE);
    const earlier =
      doc.earlier === undefined
        ? undefined
        : truncateMarked(doc.earlier, Math.floor(otherShare / 2));
    // Requests outrank every other section: if keeping them all needs the others' share,
    // they get it.
    const withShare = fitRequests(doc.requests, available - otherShare);
    const fitted = withShare.dropped > 0 ? fitRequests(doc.requests, available) : withShare;
    let room = available - itemsCost(fitted.requests, renderItem);
    room -= earlier === undefined ? 0 : cost(renderItem(earlier));
    const openQuestions = newestThatFit(doc.openQuestions, Math.max(0, room / 4), renderItem);
    room -= itemsCost(openQuestions, renderItem);
    const facts = newestThatFit(doc.facts, Math.max(0, (room * 2) / 3), renderItem);
    room -= itemsCost(facts, renderItem);
    const kept = newestThatFit(doc.artifacts, Math.max(0, room), (a) => `${a.value}, `);
    const text = renderSummary({
      ...doc,
      earlier,
      requests: fitted.requests,
      omittedRequests: doc.omittedRequests + fitted.dropped,
      facts,
      artifacts: kept,
      openQuestions,
    });
    const used = countTokens(text);
    if (used <= budget) return text;
    available -= used - budget + 8;
  }
  // Too small for any request: keep the structure and say what was left out.
  const bare = renderSummary({
    ...skeleton,
    omittedRequests: doc.omittedRequests + doc.requests.length,
  });
  return countTokens(bare) <= budget ? bare : truncateToTokens(bare, budget);
}

/** The offline `Summarizer`: `extractSummary` fitted to the budget. Never calls a model. */
export function createExtractiveSummarizer(): Summarizer {
  return {
    kind: "extractive",
    summarize(request: SummaryRequest): Promise<string> {
      const doc = extractSummary(request.messages, request.previousSummary, request.context);
      return Promise.resolve(fitToBudget(doc, request.budget));
    },
  };
}
