/**
 * The summariser used when a real model is configured: one chat call with the structured
 * prompt of summary-prompt.ts, through the same provider (and so the same retry policy) as
 * chat, on the summary model.
 */
import { collectStream } from "./collect-stream";
import { ProviderError } from "./provider-error";
import { buildSummaryPrompt } from "./summary-prompt";
import { countTokens, truncateToTokens } from "./tokens";
import type { ChatProvider, Summarizer, SummaryRequest } from "./types";

export interface LlmSummarizerOptions {
  readonly provider: ChatProvider;
  /** The model that writes summaries (SPINDLE_SUMMARY_MODEL, else the chat model). */
  readonly model: string;
}

export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  return {
    kind: "llm",
    async summarize(request: SummaryRequest): Promise<string> {
      const result = await collectStream(
        options.provider.stream({
          messages: buildSummaryPrompt(
            request.messages,
            request.previousSummary,
            request.budget,
            request.context,
          ),
          model: options.model,
          maxOutputTokens: request.budget,
          temperature: 0,
          ...(request.signal === undefined ? {} : { signal: request.signal }),
        }),
      );
      if (result.finishReason === "aborted") {
        throw new ProviderError("aborted", "The summary was cancelled.");
      }
      const text = result.text.trim();
      if (text === "")
        throw new ProviderError("provider_error", "The model wrote an empty summary.");
      // Models overshoot a stated budget; the budget is what compaction's arithmetic relies on.
      return countTokens(text, options.model) <= request.budget
        ? text
        : truncateToTokens(text, request.budget, options.model);
    },
  };
}
