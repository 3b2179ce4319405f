import type { RenderedContext } from "./render-context";
import type { LedgerNode } from "./types";

/**
 * How many user turns this branch has added since its summary was written: the user
 * messages after the summary in the rendering, minus those the summary kept verbatim
 * (`metadata.kept_user_turns`). `null` when the rendering does not admit the summary —
 * this branch was never compacted by it.
 */
export function turnsSinceCompaction(
  rendering: RenderedContext,
  summary: LedgerNode | null,
): number | null {
  if (summary === null) return null;
  const at = rendering.ids.indexOf(summary.id);
  if (at < 0) return null;
  let users = 0;
  for (const message of rendering.messages.slice(at + 1)) if (message.kind === "user") users += 1;
  const kept = summary.metadata["kept_user_turns"];
  return Math.max(0, users - (typeof kept === "number" ? kept : 0));
}
