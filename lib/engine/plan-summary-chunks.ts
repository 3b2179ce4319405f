import { messageTokens } from "./context-tokens";
import { EngineError } from "./errors";
import { tokens, type Tokens } from "./ids";
import type { RenderedMessage } from "./render-message";

/** The summariser model's room, in tokens. */
export interface SummarizerBudget {
  /** The summariser model's context window. */
  readonly window: number;
  /** Tokens of the summariser's own instructions. */
  readonly promptTokens: number;
  /** Tokens reserved for the summary it writes; the next chunk carries it as well. */
  readonly outputTokens: number;
}

/** One summariser call's share of the covered slice. */
export interface SummaryChunk {
  readonly messages: readonly RenderedMessage[];
  readonly tokens: Tokens;
  /** A single message larger than a whole chunk: the caller must truncate it to fit. */
  readonly oversized: boolean;
}

/** An assistant's tool calls and the results that follow it stay in one group. */
function toolGroups(slice: readonly RenderedMessage[]): readonly (readonly RenderedMessage[])[] {
  const groups: RenderedMessage[][] = [];
  let open: { group: RenderedMessage[]; pending: Set<string> } | undefined;
  for (const message of slice) {
    if (
      open !== undefined &&
      message.toolCallId !== undefined &&
      open.pending.has(message.toolCallId)
    ) {
      open.group.push(message);
      open.pending.delete(message.toolCallId);
      if (open.pending.size === 0) open = undefined;
      continue;
    }
    const group = [message];
    groups.push(group);
    const calls = message.toolCalls ?? [];
    open = calls.length > 0 ? { group, pending: new Set(calls.map((c) => c.id)) } : undefined;
  }
  return groups;
}

function sum(messages: readonly RenderedMessage[]): number {
  return messages.reduce((total, m) => total + messageTokens(m), 0);
}

/**
 * Splits a covered slice that exceeds the summariser's window into chained chunks (issue
 * 5: summarise in chunks rather than fail when the context is already full). Chunk k is
 * summarised with chunk k-1's summary as its previous summary, so each chunk gets the
 * window minus the instructions, the carried summary and the new summary. Order is kept;
 * a tool call stays with its results unless the pair alone is larger than a chunk. A slice
 * that fits is one chunk.
 *
 * @throws EngineError `invalid_request` when the budget leaves no room for any content.
 */
export function planSummaryChunks(
  slice: readonly RenderedMessage[],
  budget: SummarizerBudget,
): readonly SummaryChunk[] {
  const capacity = budget.window - budget.promptTokens - 2 * budget.outputTokens;
  if (capacity <= 0) {
    throw new EngineError("invalid_request", "The summariser's window leaves no room for content.");
  }
  const chunks: SummaryChunk[] = [];
  let current: RenderedMessage[] = [];
  let used = 0;
  const flush = (): void => {
    if (current.length > 0)
      chunks.push({ messages: current, tokens: tokens(used), oversized: false });
    current = [];
    used = 0;
  };
  for (const group of toolGroups(slice)) {
    const size = sum(group);
    if (size > capacity) {
      // Too big to keep together: its messages go one by one.
      for (const message of group) {
        const one = messageTokens(message);
        if (one > capacity) {
          flush();
          chunks.push({ messages: [message], tokens: tokens(one), oversized: true });
        } else {
          if (used + one > capacity) flush();
          current.push(message);
          used += one;
        }
      }
      continue;
    }
    if (used + size > capacity) flush();
    current.push(...group);
    used += size;
  }
  flush();
  return chunks;
}
