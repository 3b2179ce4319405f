/**
 * The prompt that asks the summary model for a session's title, from the opening exchange.
 * Both texts are cut short: the title needs the gist, and the call must stay cheap.
 */
import type { ChatMessage } from "./types";

/** Characters of the first user message and of the first reply the model is shown. */
const USER_CHARS = 2_000;
const REPLY_CHARS = 1_000;

/** Output tokens the title call may use: six words and some slack for chatty models. */
export const TITLE_MAX_OUTPUT_TOKENS = 64;

const INSTRUCTIONS =
  "You name conversations. Reply with a title of at most six words for the conversation " +
  "below: plain text on one line, in the language of the conversation, without quotes, " +
  "without a label and without a full stop at the end.";

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export function buildTitlePrompt(firstUser: string, firstReply: string): ChatMessage[] {
  const reply = firstReply.trim() === "" ? "" : `\n\nAssistant:\n${cut(firstReply, REPLY_CHARS)}`;
  return [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: `User:\n${cut(firstUser, USER_CHARS)}${reply}` },
  ];
}
