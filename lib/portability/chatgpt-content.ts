import type { ChatGptConversation } from "../http/schemas";

type ChatGptMessage = NonNullable<ChatGptConversation["mapping"][string]["message"]>;

/**
 * What one ChatGPT message contributes to a Spindle node: its text, nothing (a part of the
 * UI's machinery, not of the conversation), or a content type this importer cannot read.
 */
export type MessageText =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "skip" }
  | { readonly kind: "unreadable"; readonly contentType: string };

/**
 * Content types that are not conversation: hidden reasoning and its one-line recap, the
 * model's memory writes, and the user's custom instructions (account settings, which are
 * not copied into every imported session).
 */
const NOT_CONVERSATION = new Set([
  "thoughts",
  "reasoning_recap",
  "model_editable_context",
  "user_editable_context",
]);

/** Placeholders for parts that carry no text, by the part's `content_type`. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  image_asset_pointer: "[image]",
  audio_asset_pointer: "[audio]",
  video_container_asset_pointer: "[video]",
  real_time_user_audio_video_asset_pointer: "[audio/video]",
};

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The text of one `parts` entry: a string as is, an object's text, or a placeholder. */
function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (typeof part !== "object" || part === null) return "";
  const p = part as Record<string, unknown>;
  const type = str(p["content_type"]);
  const text = str(p["text"]);
  if (text !== undefined) return text;
  if (type !== undefined && PLACEHOLDERS[type]) return PLACEHOLDERS[type];
  return `[${(type ?? "attachment").replaceAll("_", " ")}]`;
}

const joinParts = (parts: readonly unknown[]) =>
  parts
    .map(partText)
    .filter((t) => t.trim() !== "")
    .join("\n\n");

/** A code block; empty code is no text at all. */
const fenced = (text: string, language = "") =>
  text.trim() === "" ? "" : `\`\`\`${language}\n${text}\n\`\`\``;

/** A quoted web page: the quoted text, then where it comes from. */
function quote(c: Record<string, unknown>): string {
  const text = str(c["text"]) ?? "";
  const source = [str(c["title"]), str(c["url"])].filter(Boolean).join(" — ");
  const quoted = text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
  return source ? `${quoted}\n\n(${source})` : quoted;
}

/** The body of a message by its content type, before any framing. */
function bodyOf(content: Record<string, unknown>, type: string): string | undefined {
  const parts = Array.isArray(content["parts"]) ? (content["parts"] as unknown[]) : undefined;
  switch (type) {
    case "text":
    case "multimodal_text":
      return joinParts(parts ?? []);
    case "code":
      return fenced(str(content["text"]) ?? "", str(content["language"]) ?? "");
    case "execution_output":
      return fenced(str(content["text"]) ?? "");
    case "tether_quote":
    case "sonic_webpage":
      return quote(content);
    case "tether_browsing_display":
      return str(content["result"]) ?? str(content["summary"]) ?? "";
    case "system_error":
      return `[error: ${str(content["name"]) ?? "tool error"}] ${str(content["text"]) ?? ""}`;
    case "computer_output":
      return "[screenshot]";
    default:
      // A newer content type: its text when it has any; otherwise it cannot be read.
      if (parts) return joinParts(parts);
      return str(content["text"]);
  }
}

/**
 * The text a ChatGPT message contributes. Images and other media become a short bracketed
 * placeholder; a call to one of ChatGPT's tools and the tool's output are framed so a reader
 * (and a model continuing the conversation) can tell them from the reply.
 */
export function messageText(message: ChatGptMessage): MessageText {
  const content = message.content as Record<string, unknown>;
  const type = message.content.content_type;
  if (NOT_CONVERSATION.has(type)) return { kind: "skip" };
  const body = bodyOf(content, type);
  if (body === undefined) return { kind: "unreadable", contentType: type };
  if (body.trim() === "") return { kind: "skip" };
  const role = message.author.role;
  const recipient = message.recipient ?? "all";
  if (role === "tool") {
    return { kind: "text", text: `[output of ${message.author.name ?? "a tool"}]\n${body}` };
  }
  if (role === "assistant" && recipient !== "all") {
    return { kind: "text", text: `[call to ${recipient}]\n${body}` };
  }
  return { kind: "text", text: body };
}
