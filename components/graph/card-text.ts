import { attachmentsOf, type LedgerNode } from "@/lib/engine/types";
import { firstLine } from "@/lib/engine/wire-node";

// The label rule is the engine's: a skeleton node's content is exactly this line.

/**
 * What a card says about a node: its first line, or what it did when it said nothing (the
 * tools it called, the files a message of only files sent).
 */
export function cardText(node: LedgerNode): string {
  const line = firstLine(node.content);
  if (line !== "") return line;
  const calls = node.metadata.tool_calls;
  if (calls !== undefined && calls.length > 0) {
    return calls.map((call) => `→ ${call.name}()`).join(" ");
  }
  const files = attachmentsOf(node);
  if (files.length > 0) return firstLine(files.map((f) => f.name).join(", "));
  if (node.status === "streaming") return "…";
  return "(empty)";
}

/** `1.2k`-style token counts for badges. */
export function formatTokens(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(abs);
  if (abs < 10_000) return `${(abs / 1000).toFixed(1)}k`;
  return `${Math.round(abs / 1000)}k`;
}

/** The capsule's saving line: what the substitution saves — or costs, when negative. */
export function savingText(tokensSaved: number): string {
  return tokensSaved >= 0
    ? `saves ${formatTokens(tokensSaved)} tokens`
    : `costs ${formatTokens(tokensSaved)} tokens`;
}

/**
 * What a capsule is, in words: "Summary of 14 earlier turns", or for a nested summary
 * "Summary of 2 summaries" (the turns under it are said beside, where there is room).
 */
export function capsuleTitle(turns: number, summaries = 0): string {
  if (summaries > 0) return `Summary of ${summaries} summaries`;
  return `Summary of ${turns} earlier ${turns === 1 ? "turn" : "turns"}`;
}

/**
 * A summary's latest audit in words, the one wording of the capsule and the node panel:
 * "audit 4.2/5" for a model's audit, "audit: 7 of 9 facts kept" for the check without one;
 * as the capsule's badge (`badge`), short enough for its width: "audit 7/9".
 */
export function auditText(
  audit: { readonly score: number | null; readonly found: number; readonly total: number },
  form: "full" | "badge" = "full",
): string {
  if (audit.score !== null) return `audit ${audit.score.toFixed(1)}/5`;
  return form === "badge"
    ? `audit ${audit.found}/${audit.total}`
    : `audit: ${audit.found} of ${audit.total} facts kept`;
}
