/**
 * Small builders shared by the provider tests: a provider pointed at a recording server with
 * a fast retry policy, and a way to drain a stream into an array.
 */
import { createOpenAIProvider, type OpenAIProviderOptions } from "@/lib/llm/openai-provider";
import { ProviderError } from "@/lib/llm/provider-error";
import type { ChatMessage, ChatProvider, StreamEvent } from "@/lib/llm/types";
import type { RecordingServer } from "../../support/recording-server";

/** Retries wait about 1 ms: the rule is under test, not the clock. */
export const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, random: () => 0.5 } as const;

export function providerFor(
  server: RecordingServer,
  options: Partial<OpenAIProviderOptions> = {},
): ChatProvider {
  return createOpenAIProvider({
    baseUrl: server.url,
    apiKey: "sk-test-key",
    model: "gpt-4o-mini",
    ...options,
    retry: { ...FAST_RETRY, maxRetries: 2, ...options.retry },
  });
}

export async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** Drains a stream that must fail; returns the error and the events seen before it. */
export async function drainFailure(
  events: AsyncIterable<StreamEvent>,
): Promise<{ error: ProviderError; seen: StreamEvent[] }> {
  const seen: StreamEvent[] = [];
  try {
    for await (const e of events) seen.push(e);
  } catch (error) {
    if (error instanceof ProviderError) return { error, seen };
    throw error;
  }
  throw new Error(`expected the stream to fail; it yielded ${JSON.stringify(seen)}`);
}

export function textOf(events: readonly StreamEvent[]): string {
  return events.map((e) => (e.type === "text" ? e.text : "")).join("");
}

export const user = (content: string): ChatMessage => ({ role: "user", content });
export const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
export const system = (content: string): ChatMessage => ({ role: "system", content });
