/**
 * The built-in offline model: the default when no endpoint is configured. It is not a
 * language model and never says it is one. It replies with a deterministic description of
 * the context it was given (how many messages, whether a summary stands in, the last user
 * message) so every feature — branching, compaction, provenance — is usable and testable
 * with nothing installed. It has a real context window and overflows like a real model.
 */
import { tokens } from "@/lib/engine/ids";
import { ProviderError } from "./provider-error";
import { sleep } from "./retry-policy";
import { summaryTextOf } from "./summary-marker";
import { countPromptTokens, countTokens } from "./tokens";
import type { ChatMessage, ChatProvider, ChatRequest, ModelInfo, StreamEvent } from "./types";

export const OFFLINE_MODEL_ID = "offline model";
export const OFFLINE_CONTEXT_WINDOW = 8_192;

export interface OfflineModelOptions {
  /** Tokens the prompt may use before the model reports `provider_overflow`. */
  readonly contextWindow?: number;
  /** Pause between streamed words, for a realistic pace in demos; 0 in tests. */
  readonly delayMs?: number;
}

/** Longest stretch of the last user message quoted back, so a pasted file stays readable. */
const QUOTE_LIMIT = 280;

function quote(text: string, limit = QUOTE_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? `"${flat}"` : `"${flat.slice(0, limit - 1)}…"`;
}

/**
 * The offline model's reply to `messages`: a pure function of its input, so a test can
 * assert it exactly and a retry of the same context gives the same answer.
 */
export function describeContext(
  messages: readonly ChatMessage[],
  promptTokens: number,
  contextWindow: number,
): string {
  const summaries = messages.flatMap((m) => {
    const text = summaryTextOf(m.content);
    return text === undefined ? [] : [text];
  });
  const roles = (["system", "user", "assistant", "tool"] as const)
    .map((role) => ({ role, n: messages.filter((m) => m.role === role).length }))
    .filter(({ n }) => n > 0)
    .map(({ role, n }) => `${n} ${role}`);
  const lastUser = [...messages]
    .reverse()
    .find((m) => m.role === "user" && summaryTextOf(m.content) === undefined);

  const lines = [
    "This is the offline model: no language model is configured, so instead of answering " +
      "it describes the context it received.",
    "",
    `- Messages in context: ${messages.length}${roles.length > 0 ? ` (${roles.join(", ")})` : ""}.`,
  ];
  const summary = summaries.at(-1);
  if (summary === undefined) {
    lines.push("- Summary: none; every earlier turn is included verbatim.");
  } else {
    const firstLine = summary.split("\n").find((l) => l.trim() !== "") ?? "";
    lines.push(
      `- Summary: a summary stands in for earlier turns. Its first line: ${quote(firstLine)}.`,
    );
  }
  lines.push(
    lastUser === undefined
      ? "- Last user message: none."
      : `- Last user message: ${quote(lastUser.content)}.`,
  );
  const used = promptTokens.toLocaleString("en-US");
  lines.push(`- Context used: ${used} of ${contextWindow.toLocaleString("en-US")} tokens.`);
  return lines.join("\n");
}

/** Splits keeping each word's trailing whitespace, so the chunks join back exactly. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Creates the offline model. Its `listModels()` lists only itself. */
export function createOfflineModel(options: OfflineModelOptions = {}): ChatProvider {
  const contextWindow = options.contextWindow ?? OFFLINE_CONTEXT_WINDOW;
  const delayMs = options.delayMs ?? 0;

  async function* stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
    const promptTokens = countPromptTokens(request.messages);
    if (promptTokens > contextWindow) {
      throw new ProviderError(
        "provider_overflow",
        `The prompt (${promptTokens} tokens) exceeds the offline model's context window ` +
          `of ${contextWindow} tokens.`,
      );
    }
    const reply = describeContext(request.messages, promptTokens, contextWindow);
    for (const [i, chunk] of words(reply).entries()) {
      if (request.signal?.aborted) {
        yield { type: "finish", reason: "aborted" };
        return;
      }
      if (i > 0 && delayMs > 0 && !(await sleep(delayMs, request.signal))) {
        yield { type: "finish", reason: "aborted" };
        return;
      }
      yield { type: "text", text: chunk };
    }
    const completionTokens = countTokens(reply);
    yield {
      type: "usage",
      usage: {
        promptTokens,
        completionTokens,
        totalTokens: tokens(promptTokens + completionTokens),
      },
    };
    yield { type: "finish", reason: "stop" };
  }

  return {
    kind: "offline",
    label: OFFLINE_MODEL_ID,
    model: OFFLINE_MODEL_ID,
    stream,
    listModels(): Promise<readonly ModelInfo[]> {
      return Promise.resolve([{ id: OFFLINE_MODEL_ID, ownedBy: "spindle" }]);
    },
  };
}
