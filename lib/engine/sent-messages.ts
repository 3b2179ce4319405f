import type { NodeId } from "./ids";
import type { RenderedContext } from "./render-context";
import type { RenderedMessage } from "./render-message";
import type { ToolCall } from "./types";

/** A rendered message as the provider receives it, with the tool calls a result answers. */
export interface SentMessage {
  readonly message: RenderedMessage;
  readonly calls: readonly ToolCall[] | undefined;
}

/**
 * The messages of a rendering that reach the provider, in order. OpenAI-compatible servers
 * reject an assistant tool call that no tool result answers — which is exactly what a
 * sub-agent's branch sees (it opens from the caller's tool-call node, before the result
 * exists) — so unanswered calls are left off, and an assistant message left with nothing to
 * say is dropped. A reply's `reads` are the ids of these messages ({@link sentIds}).
 */
export function sentMessages(rendered: RenderedContext): SentMessage[] {
  const answered = new Set(rendered.messages.flatMap((m) => (m.toolCallId ? [m.toolCallId] : [])));
  const out: SentMessage[] = [];
  for (const m of rendered.messages) {
    const calls = m.toolCalls?.filter((c) => answered.has(c.id));
    if (m.role === "assistant" && m.toolCalls && (calls?.length ?? 0) === 0 && m.content === "")
      continue;
    out.push({ message: m, calls });
  }
  return out;
}

/** The ids a reply produced from `rendered` records as its `reads`. */
export function sentIds(rendered: RenderedContext): NodeId[] {
  return sentMessages(rendered).map((s) => s.message.id);
}
