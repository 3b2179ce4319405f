/**
 * What a probe asks a model: the context it is judged with (a summary, or the originals it
 * stands in for), then the question as one more user message. The same wording for both
 * contexts, so the answers differ only by what the context holds.
 */
import type { ChatMessage } from "../llm/types";

export const PROBE_INSTRUCTIONS =
  "Answer from the conversation above only. Reply with the missing words or one short " +
  "sentence; if the conversation does not say, reply exactly: not stated.";

export function probeMessages(context: readonly ChatMessage[], question: string): ChatMessage[] {
  return [...context, { role: "user", content: `${PROBE_INSTRUCTIONS}\n\n${question}` }];
}
