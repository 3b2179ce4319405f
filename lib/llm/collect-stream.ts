/**
 * Drains a chat stream into its final result, for callers that do not display tokens as
 * they arrive (summaries, tests).
 */
import type { FinishReason, StreamEvent, ToolCall, Usage } from "./types";

export interface CollectedStream {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: Usage | undefined;
  readonly finishReason: FinishReason;
  /** Retries that happened before the first token. */
  readonly retries: number;
}

export async function collectStream(events: AsyncIterable<StreamEvent>): Promise<CollectedStream> {
  let text = "";
  let toolCalls: readonly ToolCall[] = [];
  let usage: Usage | undefined;
  let finishReason: FinishReason | undefined;
  let retries = 0;
  for await (const event of events) {
    switch (event.type) {
      case "text":
        text += event.text;
        break;
      case "tool_calls":
        toolCalls = event.calls;
        break;
      case "usage":
        usage = event.usage;
        break;
      case "finish":
        finishReason = event.reason;
        break;
      case "retry":
        retries++;
        break;
      case "tool_call_delta":
        break;
    }
  }
  if (finishReason === undefined) throw new Error("invariant: a chat stream ended without finish");
  return { text, toolCalls, usage, finishReason, retries };
}
