/** What the composer's text asks for: a message, or one of the slash commands. */
export type ComposerCommand =
  | { readonly kind: "message"; readonly text: string }
  | { readonly kind: "compact" }
  | { readonly kind: "task"; readonly prompt: string }
  | { readonly kind: "send"; readonly sessionId: string; readonly text: string }
  | { readonly kind: "model"; readonly name: string }
  | { readonly kind: "invalid"; readonly message: string };

export const SLASH_HELP: readonly { readonly usage: string; readonly what: string }[] = [
  { usage: "/compact", what: "summarise everything before the latest exchange now" },
  { usage: "/task <prompt>", what: "run a sub-agent on a side branch; its result returns here" },
  { usage: "/send <session-id> <text>", what: "send a message to another session" },
  { usage: "/model <name>", what: "switch this session's model" },
];

/**
 * Parses the composer's text. Text that does not start with `/word` is a message; `/word`
 * that is no command is refused (a typo such as "/compcat" would otherwise go to the model
 * as a message), and `//` sends text that starts with a slash.
 */
export function parseComposer(input: string): ComposerCommand {
  const text = input.trim();
  if (text.startsWith("//")) return { kind: "message", text: input.replace("//", "/") };
  if (text === "/") {
    return {
      kind: "invalid",
      message: `Type a command: ${SLASH_HELP.map((h) => h.usage).join(", ")}.`,
    };
  }
  const m = /^\/(\w+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) return { kind: "message", text: input };
  const [, name, rest = ""] = m;
  switch (name) {
    case "compact":
      return { kind: "compact" };
    case "task":
      return rest.trim()
        ? { kind: "task", prompt: rest.trim() }
        : { kind: "invalid", message: "Usage: /task <prompt>" };
    case "send": {
      const s = /^(\S+)\s+([\s\S]+)$/.exec(rest.trim());
      return s?.[1] && s[2]
        ? { kind: "send", sessionId: s[1], text: s[2] }
        : { kind: "invalid", message: "Usage: /send <session-id> <text>" };
    }
    case "model":
      return rest.trim()
        ? { kind: "model", name: rest.trim() }
        : { kind: "invalid", message: "Usage: /model <name>" };
    default:
      return {
        kind: "invalid",
        message: `There is no command /${name}: try ${SLASH_HELP.map((h) => h.usage.split(" ")[0]).join(", ")}. To send a message that starts with "/", begin it with "//".`,
      };
  }
}
