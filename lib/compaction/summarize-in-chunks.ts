import type { Tokens } from "../engine/ids";
import type { CompactionWork } from "../engine/plan-compaction";
import { planSummaryChunks } from "../engine/plan-summary-chunks";
import type { RenderedMessage } from "../engine/render-message";
import { truncateToTokens } from "../llm/tokens";
import type { ChatMessage, Summarizer } from "../llm/types";

/** Tokens of the summariser's own instructions, reserved in every chunk. */
export const SUMMARIZER_PROMPT_TOKENS = 600;

export interface ChunkedSummaryInput {
  readonly summarizer: Summarizer;
  readonly plan: CompactionWork;
  readonly summarizerWindow: number;
  /** Tokens the summary may take (capped to a quarter of the summariser's free window). */
  readonly budget: number;
  readonly count: (text: string) => Tokens;
  readonly signal?: AbortSignal;
}

function toChat(message: RenderedMessage, maxTokens: number | undefined): ChatMessage {
  const content =
    maxTokens === undefined ? message.content : truncateToTokens(message.content, maxTokens);
  return {
    role: message.role,
    content,
    ...(message.toolCalls ? { tool_calls: message.toolCalls } : {}),
    ...(message.toolCallId ? { tool_call_id: message.toolCallId } : {}),
  };
}

/**
 * Summarises the covered slice, in chained chunks when it exceeds the summariser's window
 * (the "compact fails when already full" trap): each chunk's summary is carried into the
 * next as the previous summary, so the last call's text covers the whole slice. The
 * previous summary of the plan, when chained, starts the chain.
 */
export async function summarizeInChunks(input: ChunkedSummaryInput): Promise<string> {
  const { plan } = input;
  // The summary must leave the summariser room for content: at most a quarter of what its
  // window holds beyond the instructions (a session window far larger than the summariser's
  // would otherwise ask for a summary the summariser's window cannot even hold twice).
  const budget = Math.min(
    input.budget,
    Math.floor((input.summarizerWindow - SUMMARIZER_PROMPT_TOKENS) / 4),
  );
  const turns = plan.covered.filter((m) => m.kind !== "summary");
  const chunks = planSummaryChunks(turns, {
    window: input.summarizerWindow,
    promptTokens: SUMMARIZER_PROMPT_TOKENS,
    outputTokens: budget,
  });
  const capacity = input.summarizerWindow - SUMMARIZER_PROMPT_TOKENS - 2 * budget;
  let running = plan.previousSummary?.text;
  for (const chunk of chunks) {
    running = await input.summarizer.summarize({
      messages: chunk.messages.map((m) => toChat(m, chunk.oversized ? capacity : undefined)),
      ...(running !== undefined ? { previousSummary: running } : {}),
      budget,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  }
  return running ?? "";
}
