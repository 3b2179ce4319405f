import type { LedgerNode } from "@/lib/engine/types";
import type { WireNode } from "@/lib/engine/wire-node";

/**
 * Whether `node` read a summary (its stamped `reads` name one), so that a replay of it can
 * go without summaries; null while its reads are not held (a lean or skeleton copy — the
 * caller fetches it whole) or the node is not held at all.
 */
export function readsASummary(
  node: WireNode | undefined,
  nodes: { get(id: string): Pick<LedgerNode, "kind"> | undefined },
): boolean | null {
  if (node === undefined || node.partial !== undefined) return null;
  return node.reads.some((id) => nodes.get(id)?.kind === "summary");
}
