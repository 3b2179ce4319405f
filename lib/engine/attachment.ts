import type { LedgerNode } from "./types";
import { isSideLeafKind } from "./side-leaf";

/**
 * True when `child` hangs off `parent` without being one of its alternatives: a side leaf
 * (summary, notice) or a spawned sub-agent branch (its root names `parent` as caller).
 *
 * A `tool` child is never an attachment even though its callerId names the assistant that
 * called the tool: tool results continue the chain of their call (the cut rules keep them on
 * the same side of every compaction), whereas a spawned branch leaves it.
 */
export function isAttachmentOf(child: LedgerNode, parent: LedgerNode): boolean {
  if (child.predecessorId !== parent.id) return false;
  if (isSideLeafKind(child.kind)) return true;
  return child.callerId === parent.id && child.kind !== "tool";
}
