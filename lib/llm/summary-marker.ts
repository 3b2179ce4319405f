/**
 * How a summary travels inside a prompt: as an ordinary message whose content begins with
 * `SUMMARY_PREFIX`. The engine's renderer owns the prefix (it writes it, and lib/engine may
 * import nothing from the edges), so this module re-exports it rather than define a second
 * one; the offline model and the summarisers use it to recognise a summary message.
 */
import { SUMMARY_PREFIX } from "@/lib/engine/render-message";

export { SUMMARY_PREFIX };

/** The message content that carries `summaryText` into a prompt (as the renderer writes it). */
export function summaryMessageContent(summaryText: string): string {
  return SUMMARY_PREFIX + summaryText;
}

/** The summary text a message carries, or undefined when it is not a summary message. */
export function summaryTextOf(content: string): string | undefined {
  return content.startsWith(SUMMARY_PREFIX) ? content.slice(SUMMARY_PREFIX.length) : undefined;
}
