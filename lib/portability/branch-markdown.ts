import type { RenderedContext } from "../engine/render-context";
import { SUMMARY_PREFIX } from "../engine/render-message";
import { attachmentsOf, type LedgerNode, type SessionRecord } from "../engine/types";

const HEADINGS: Record<LedgerNode["kind"], string> = {
  root: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool result",
  summary: "Summary of earlier turns",
  notice: "Notice",
};

const quoted = (text: string) =>
  text
    .split("\n")
    .map((l) => (l === "" ? ">" : `> ${l}`))
    .join("\n");

/** A collapsed block (GitHub and most Markdown viewers render `<details>`). */
const details = (summary: string, body: string) => [
  "<details>",
  `<summary>${summary}</summary>`,
  "",
  body,
  "",
  "</details>",
  "",
];

/** The heading of one message: its role, and its status when it did not complete. */
function heading(node: LedgerNode): string {
  const status = node.status === "complete" ? "" : ` _(${node.status})_`;
  return `## ${HEADINGS[node.kind]}${status}`;
}

/** Where a summary stands in, the index of the last spine node it covers, or -1. */
function lastCoveredIndex(spine: readonly LedgerNode[], rendering: RenderedContext): number {
  const at = rendering.messages.findIndex((m) => m.kind === "summary");
  if (at === -1) return -1;
  // The covered segment starts right under ROOT and ends before the first kept message
  // (compaction writes it so, [R49]); with no kept tail it runs to the head.
  const firstKept = rendering.ids[at + 1];
  const keptAt = firstKept === undefined ? -1 : spine.findIndex((n) => n.id === firstKept);
  return keptAt === -1 ? spine.length - 1 : keptAt - 1;
}

/**
 * One branch as Markdown: the title, the system prompt collapsed, then every message from
 * ROOT to the head under a role heading — what happened. Where a summary stands in for the
 * earlier messages of this branch, a note after the last of them holds the summary — what
 * the model reads instead.
 */
export function branchMarkdown(
  session: SessionRecord,
  spine: readonly LedgerNode[],
  rendering: RenderedContext,
): string {
  const [root, ...messages] = spine;
  const count = messages.length;
  const lines = [
    `# ${session.title.replace(/\s+/g, " ").trim() || "Untitled"}`,
    "",
    `_One branch of a Spindle session: ${count} message${count === 1 ? "" : "s"}, up to node \`${rendering.headId}\`._`,
    "",
  ];
  if (root) lines.push(...details("System prompt", quoted(root.content.trim() || "(empty)")));
  const coveredTo = lastCoveredIndex(spine, rendering);
  const summary = rendering.messages.find((m) => m.kind === "summary");
  spine.forEach((node, i) => {
    if (i === 0) return;
    const files = attachmentsOf(node);
    lines.push(heading(node), "", node.content.trim() || (files.length ? "" : "_(no text)_"));
    // Attachments are listed, not inlined (R273): name, type and size.
    for (const f of files) {
      lines.push(
        `- Attachment: \`${f.name.replace(/`/g, "'")}\` (${f.mime}, ${f.size.toLocaleString("en")} bytes)`,
      );
    }
    lines.push("");
    const calls = node.metadata.tool_calls;
    if (calls && calls.length > 0) {
      lines.push(`_Called ${calls.map((c) => `\`${c.name}\``).join(", ")}._`, "");
    }
    if (summary && i === coveredTo) {
      lines.push(
        `> **Summarised.** From here on the model reads a summary in place of the ${coveredTo} message${coveredTo === 1 ? "" : "s"} above.`,
        "",
        ...details("The summary", summary.content.replace(SUMMARY_PREFIX, "").trim()),
      );
    }
  });
  return lines.join("\n");
}
