import { assertNever } from "./assert-never";
import { tokens, type NodeId, type Tokens } from "./ids";
import {
  attachmentsOf,
  type AttachmentRef,
  type LedgerNode,
  type NodeKind,
  type ToolCall,
} from "./types";

/** The chat roles a provider understands. */
export type MessageRole = "system" | "user" | "assistant" | "tool";

/** The node kinds that can reach a prompt; `notice` never does. */
export type RenderedKind = Exclude<NodeKind, "notice">;

/**
 * One message of a rendering, in the wire shape of `GET .../context` (`{id, kind, role,
 * content}`) extended with what a provider needs to replay tool use and what the budget
 * needs to price the message without re-tokenising.
 */
export interface RenderedMessage {
  readonly id: NodeId;
  readonly kind: RenderedKind;
  readonly role: MessageRole;
  readonly content: string;
  /** Tokens of `content` as sent (a summary's includes {@link SUMMARY_PREFIX}). */
  readonly tokenCount: Tokens;
  /** Assistant messages that call tools: the calls, from `metadata.tool_calls`. */
  readonly toolCalls?: readonly ToolCall[];
  /** Tool results: the call they answer, from `metadata.tool_call_id`. */
  readonly toolCallId?: string;
  /**
   * User messages: the files sent with the node (R265). They render where the node renders
   * and only there; `tokenCount` already includes them.
   */
  readonly attachments?: readonly AttachmentRef[];
}

/**
 * A summary reaches the model as a `user` message, framed by this prefix. Not `system`:
 * many OpenAI-compatible servers (llama.cpp and vLLM chat templates among them) reject a
 * second or non-leading system message, and the reference tools (Claude Code, Codex CLI,
 * Gemini CLI) all hand their summary over as user-side context. The prefix tells the model
 * what the text is; `kind: "summary"` tells every program.
 */
export const SUMMARY_PREFIX =
  "[Summary of the earlier conversation. It stands in for the messages before this point.]\n\n";

/**
 * Tokens the prefix adds: 17 in both o200k and cl100k, rounded up so other BPE vocabularies
 * are not undercounted. A constant, so pricing a rendering never re-tokenises.
 */
export const SUMMARY_PREFIX_TOKENS: Tokens = tokens(20);

/** The role each rendered kind is sent with. */
export function roleOf(kind: RenderedKind): MessageRole {
  switch (kind) {
    case "root":
      return "system";
    case "user":
    case "summary":
      return "user";
    case "assistant":
      return "assistant";
    case "tool":
      return "tool";
    default:
      return assertNever(kind, "rendered kind");
  }
}

function toolCallsOf(node: LedgerNode): readonly ToolCall[] | undefined {
  const calls: unknown = node.metadata.tool_calls;
  return Array.isArray(calls) && calls.length > 0 ? (calls as readonly ToolCall[]) : undefined;
}

/**
 * The prompt message a node contributes, or `null` for a notice (shown to people, never to
 * a model). Which nodes of a spine are rendered at all is {@link renderContext}'s decision.
 */
export function renderMessage(node: LedgerNode): RenderedMessage | null {
  const kind = node.kind;
  if (kind === "notice") return null;
  const summary = kind === "summary";
  const content = summary ? SUMMARY_PREFIX + node.content : node.content;
  const tokenCount = summary ? tokens(node.tokenCount + SUMMARY_PREFIX_TOKENS) : node.tokenCount;
  const toolCalls = kind === "assistant" ? toolCallsOf(node) : undefined;
  const toolCallId = kind === "tool" ? node.metadata.tool_call_id : undefined;
  const attachments = kind === "user" ? attachmentsOf(node) : [];
  return {
    id: node.id,
    kind,
    role: roleOf(kind),
    content,
    tokenCount,
    ...(toolCalls !== undefined ? { toolCalls } : {}),
    ...(typeof toolCallId === "string" ? { toolCallId } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}
