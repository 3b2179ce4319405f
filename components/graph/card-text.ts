import type { LedgerNode } from "@/lib/engine/types";

const MAX_LINE = 90;

/**
 * The first non-empty line of `text`, cut to fit a card. Reads only as far as that line
 * (a long reply is not split whole for its label). Idempotent: a label is its own label.
 */
export function firstLine(text: string, max = MAX_LINE): string {
  let line = "";
  for (let start = 0, lines = 0; start <= text.length && lines < 20; lines += 1) {
    const end = text.indexOf("\n", start);
    const candidate = text.slice(start, end < 0 ? text.length : end).trim();
    if (candidate !== "") {
      line = candidate;
      break;
    }
    if (end < 0) break;
    start = end + 1;
  }
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What a card says about a node: its first line, or what it did when it said nothing. */
export function cardText(node: LedgerNode): string {
  const line = firstLine(node.content);
  if (line !== "") return line;
  const calls = node.metadata.tool_calls;
  if (calls !== undefined && calls.length > 0) {
    return calls.map((call) => `→ ${call.name}()`).join(" ");
  }
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
