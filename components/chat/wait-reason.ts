import type { SessionState } from "@/components/session/session-store";

/**
 * Why a message cannot be sent yet, in words for the Send button's title and the notice
 * Enter shows — or null when nothing holds the turn. A reply streaming (this tab's, or one
 * another tab or a replay started) holds it as much as this tab's own request.
 */
export function waitReason(busy: SessionState["busy"], streaming: boolean): string | null {
  if (busy === "turn" || streaming) return "Wait for the reply to finish";
  if (busy === "compact") return "Wait for the compaction to finish";
  if (busy === "task") return "Wait for the sub-agent task to finish";
  if (busy === "send") return "Wait for the message to the other session to be sent";
  return null;
}
