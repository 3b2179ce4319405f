import { tokens, type Tokens } from "./ids";
import type { RenderedMessage } from "./render-message";

/**
 * Tokens a chat message costs beyond its content: the role and the turn delimiters of the
 * chat template. OpenAI documents 3 per message plus 3 priming the reply; 4 per message
 * folds the priming in for any conversation of two or more messages and matches the
 * ChatML-style templates of local servers.
 */
export const MESSAGE_OVERHEAD_TOKENS: Tokens = tokens(4);

/** What one rendered message costs in a prompt. */
export function messageTokens(message: RenderedMessage): Tokens {
  return tokens(message.tokenCount + MESSAGE_OVERHEAD_TOKENS);
}

/**
 * What a rendering costs in a prompt: each message's stored token count plus the per-message
 * overhead. Never re-tokenises — every count was taken once, when its node was sealed.
 */
export function contextTokens(messages: readonly RenderedMessage[]): Tokens {
  let sum = 0;
  for (const message of messages) sum += message.tokenCount + MESSAGE_OVERHEAD_TOKENS;
  return tokens(sum);
}
