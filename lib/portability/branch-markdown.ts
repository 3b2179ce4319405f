import type { RenderedContext } from "../engine/render-context";
import type { LedgerNode, SessionRecord } from "../engine/types";

const HEADINGS: Record<LedgerNode["kind"], string> = {
  root: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool result",
  summary: "Summary of earlier turns",
  notice: "Notice",
};

/**
 * One branch as Markdown: the raw spine from ROOT to the head (what happened), followed by
 * what the model reads from there when a summary stands in (what it sees).
 */
export function branchMarkdown(
  session: SessionRecord,
  spine: readonly LedgerNode[],
  rendering: RenderedContext,
): string {
  const lines = [`# ${session.title}`, ""];
  for (const node of spine) {
    const status = node.status === "complete" ? "" : ` _(${node.status})_`;
    lines.push(`## ${HEADINGS[node.kind]}${status}`, "", node.content.trim() || "_(empty)_", "");
  }
  const summary = rendering.messages.find((m) => m.kind === "summary");
  if (summary) {
    lines.push("---", "", "## What the model reads from here", "");
    lines.push(
      `A summary stands in for the earlier turns (${rendering.ids.length} messages in context):`,
      "",
    );
    lines.push(summary.content.trim(), "");
  }
  return lines.join("\n");
}
