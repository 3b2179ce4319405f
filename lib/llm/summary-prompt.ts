/**
 * The prompt an LLM summariser is given. It asks for the same structure the extractive
 * summariser writes, so a session can switch between the offline model and a real endpoint
 * and the previous summary still reads the same way.
 */
import { summaryTextOf } from "./summary-marker";
import type { ChatMessage } from "./types";

const INSTRUCTIONS = `You write the rolling summary of a conversation. Your summary replaces the turns below in the model's context, so anything you leave out is forgotten.

Write plain text in exactly this structure (omit a section only when it would be empty):

Goal: <one line: what the user is trying to achieve>

User requests (verbatim, oldest first):
- <every user request, copied word for word; continuation lines indented two spaces>

Decisions and key facts:
- <what was decided, found or produced, one line each>

Artifacts:
- code: \`<first line of each code block>\`
- files: <file names mentioned>
- numbers: <figures that matter>
- URLs: <links mentioned>

Open questions:
- <user questions not yet answered>

Next step: <one line>

Rules:
- Keep every user request verbatim. Never paraphrase a request; only if the summary cannot otherwise fit, cut the longest request and mark the cut with "[…truncated]".
- Do not invent anything that is not in the conversation.
- Write nothing before "Goal:" and nothing after the "Next step:" line.`;

function transcript(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => summaryTextOf(m.content) === undefined)
    .map((m) => {
      const calls = (m.tool_calls ?? []).map((c) => `\n(called ${c.name} with ${c.arguments})`);
      const label = m.role === "tool" ? `tool result ${m.tool_call_id ?? ""}`.trim() : m.role;
      return `[${label}]\n${m.content}${calls.join("")}`;
    })
    .join("\n\n");
}

/**
 * Messages for the summary call. A previous summary — passed in, or found among the covered
 * messages — is presented as such, with the instruction that its facts carry over.
 */
export function buildSummaryPrompt(
  messages: readonly ChatMessage[],
  previousSummary: string | undefined,
  budget: number,
  context?: string,
): ChatMessage[] {
  const carried = messages.map((m) => summaryTextOf(m.content)).find((t) => t !== undefined);
  const previous = previousSummary ?? carried;
  const turns = messages.filter((m) => summaryTextOf(m.content) === undefined);
  const parts = [
    ...(context === undefined
      ? []
      : [
          "The conversation before the part below is already summarised, and that summary " +
            "stays in the context as it is. Read it to understand this part; do not repeat " +
            "anything from it in your summary, which covers only what follows it.\n\n" +
            `<earlier_summary>\n${context}\n</earlier_summary>`,
        ]),
    previous === undefined
      ? "There is no previous summary."
      : "A previous summary exists. It already stands in for earlier turns: carry over every " +
        "still-relevant fact, decision, artifact and open question from it, and keep every " +
        "user request it lists verbatim, before the new ones.\n\n" +
        `<previous_summary>\n${previous}\n</previous_summary>`,
    turns.length === 0 && previous !== undefined
      ? "There are no new turns: rewrite the previous summary as one shorter summary, in the same structure."
      : `<conversation>\n${transcript(messages)}\n</conversation>`,
    `Write the new summary now, in at most ${budget} tokens.`,
  ];
  return [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: parts.join("\n\n") },
  ];
}
