import type { RenderedMessage } from "./render-message";

/**
 * The index of the assistant whose tool calls are still waiting for results, or -1: the last
 * assistant of the view when only tool results follow it and one of its calls has none. A
 * call the conversation moved on from (a later user or assistant turn) is abandoned, not
 * waiting. While one waits, the agent loop (or a `/task` run) is between rounds.
 */
export function pendingToolCallIndex(view: readonly RenderedMessage[]): number {
  const answered = new Set(view.flatMap((m) => (m.toolCallId === undefined ? [] : [m.toolCallId])));
  for (let i = view.length - 1; i >= 1; i -= 1) {
    const message = view[i];
    if (message === undefined || message.kind === "tool") continue;
    return (message.toolCalls ?? []).some((call) => !answered.has(call.id)) ? i : -1;
  }
  return -1;
}
