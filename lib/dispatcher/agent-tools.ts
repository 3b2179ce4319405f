import type { ToolSpec } from "../llm/types";

/** The sub-agent tool: a same-session turn on a side branch (compaction.md §5). */
export const TASK_TOOL = "task";
/** The cross-session tool: a turn in another of the user's sessions. */
export const SEND_MESSAGE_TOOL = "send_message";

/** Tool rounds a turn may run by default before it stops with a notice. */
export const DEFAULT_TOOL_ROUNDS = 8;
/** How deep sub-agents may nest (a sub-agent calling `task` is depth 2). */
export const MAX_AGENT_DEPTH = 2;

/** The functions offered to a tool-calling model, described for it to use them well. */
export const AGENT_TOOLS: readonly ToolSpec[] = [
  {
    name: TASK_TOOL,
    description:
      "Delegate a self-contained piece of work to a sub-agent. It sees this conversation up to " +
      "now plus your prompt, works on its own side branch (the user can open it), and its " +
      "final answer comes back to you as this tool's result. Use it for research, drafting or " +
      "checking that would clutter the main conversation; give it everything it needs in the " +
      "prompt. Several calls in one reply run in parallel.",
    parameters: {
      type: "object",
      properties: {
        prompt: {
          type: "string",
          description: "What the sub-agent should do and what to answer with.",
        },
      },
      required: ["prompt"],
      additionalProperties: false,
    },
  },
  {
    name: SEND_MESSAGE_TOOL,
    description:
      "Send a message to another of the user's conversations (by its session id) and get that " +
      "conversation's reply. The message is added to that conversation's current branch, as " +
      "if the user had typed it there. Only use session ids the user gave you.",
    parameters: {
      type: "object",
      properties: {
        session_id: { type: "string", description: "The target conversation's id." },
        content: { type: "string", description: "The message to send." },
      },
      required: ["session_id", "content"],
      additionalProperties: false,
    },
  },
];
