/**
 * Translation between the provider layer's types and the Chat Completions wire format.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { tokens } from "@/lib/engine/ids";
import { ProviderError } from "./provider-error";
import type { ChatMessage, FinishReason, ToolSpec, Usage } from "./types";

export function toWireMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user": {
      const images = message.images ?? [];
      if (images.length === 0) return { role: "user", content: message.content };
      // Text first, then each image as a data URL part (Chat Completions' vision input).
      return {
        role: "user",
        content: [
          ...(message.content === "" ? [] : [{ type: "text" as const, text: message.content }]),
          ...images.map((image) => ({
            type: "image_url" as const,
            image_url: { url: `data:${image.mime};base64,${image.base64}` },
          })),
        ],
      };
    }
    case "assistant": {
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // The protocol wants null, not "", for a turn that is only tool calls.
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
    case "tool":
      if (message.tool_call_id === undefined) {
        throw new ProviderError("bad_request", "A tool message needs the tool_call_id it answers.");
      }
      return { role: "tool", content: message.content, tool_call_id: message.tool_call_id };
  }
}

export function toWireTool(tool: ToolSpec): ChatCompletionFunctionTool {
  return {
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: { ...tool.parameters },
    },
  };
}

export function fromWireUsage(usage: NonNullable<ChatCompletionChunk["usage"]>): Usage {
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  // Servers that cache prompts (OpenAI, vLLM with prefix caching, DeepSeek's own fields
  // aside) report the cached share here; one that reports nothing has no cached count.
  const cached: unknown = usage.prompt_tokens_details?.cached_tokens;
  return {
    promptTokens: tokens(prompt),
    completionTokens: tokens(completion),
    totalTokens: tokens(usage.total_tokens ?? prompt + completion),
    ...(typeof cached === "number" && Number.isFinite(cached) && cached >= 0
      ? { cachedTokens: tokens(Math.floor(cached)) }
      : {}),
  };
}

/** Unknown reasons (servers invent their own, e.g. "eos") mean the model stopped. */
export function fromWireFinish(reason: string): FinishReason {
  switch (reason) {
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}
