import type { NodeId } from "../engine/ids";
import type { RenderedContext } from "../engine/render-context";
import { sentMessages } from "../engine/sent-messages";
import type { ChatMessage } from "../llm/types";

/** A rendering as the provider receives it. */
export interface Wire {
  readonly messages: ChatMessage[];
  readonly ids: NodeId[];
}

/**
 * The provider's prompt for a rendering, in the same order, and the ids of the nodes it
 * carries: what a reply records as `reads` is exactly what the provider received.
 * OpenAI-compatible servers reject an assistant tool call that no tool result answers —
 * which is exactly what a sub-agent's branch sees (it opens from the caller's tool-call
 * node, before the result exists) — so unanswered calls are left off the wire, and an
 * assistant message left with nothing to say is dropped ({@link sentMessages}).
 */
export function toWire(rendered: RenderedContext): Wire {
  const out: ChatMessage[] = [];
  const ids: NodeId[] = [];
  for (const { message: m, calls } of sentMessages(rendered)) {
    ids.push(m.id);
    out.push({
      role: m.role,
      content: m.content,
      ...(calls && calls.length > 0 ? { tool_calls: calls } : {}),
      ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
      ...(m.attachments && m.attachments.length > 0 ? { attachments: m.attachments } : {}),
    });
  }
  return { messages: out, ids };
}
