import type { NodeId, Tokens } from "../engine/ids";
import type { CompactionWork } from "../engine/plan-compaction";
import { planSummaryChunks } from "../engine/plan-summary-chunks";
import type { RenderedMessage } from "../engine/render-message";
import { mergeSummaryTexts } from "../llm/summary-document";
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
  /**
   * What the summariser reads of each covered message's attachments (R268): text files
   * trimmed to its budget, one line per image. Appended after the message's own text.
   */
  readonly attachmentText?: ReadonlyMap<NodeId, string>;
}

function toChat(
  message: RenderedMessage,
  maxTokens: number | undefined,
  extra: string | undefined,
): ChatMessage {
  const full = extra
    ? [message.content, extra].filter((t) => t !== "").join("\n\n")
    : message.content;
  const content = maxTokens === undefined ? full : truncateToTokens(full, maxTokens);
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
 * summaries the plan absorbs, when it chains any, start the chain (several merged into one
 * document, oldest first); the summaries it keeps ahead of the new segment go along as
 * context. A nest (no turns, only summaries) is one call that rewrites them as one.
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
  let running =
    plan.absorbed.length === 0 ? undefined : mergeSummaryTexts(plan.absorbed.map((s) => s.text));
  const context =
    plan.context.length === 0 ? undefined : mergeSummaryTexts(plan.context.map((s) => s.text));
  const calls = chunks.length > 0 ? chunks : [{ messages: [], tokens: 0, oversized: false }];
  for (const chunk of calls) {
    running = await input.summarizer.summarize({
      messages: chunk.messages.map((m) =>
        toChat(m, chunk.oversized ? capacity : undefined, input.attachmentText?.get(m.id)),
      ),
      ...(running !== undefined ? { previousSummary: running } : {}),
      ...(context !== undefined ? { context } : {}),
      budget,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  }
  return running ?? "";
}
