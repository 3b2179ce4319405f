import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";

/**
 * Where sibling navigation lands: the most recently written leaf of the conversation below
 * `start` (`start` itself when nothing is below it). Switching to another version of a
 * message shows that version's latest continuation, as ChatGPT's `< 2/3 >` does. Side
 * leaves (summaries, notices) and spawned sub-agent branches are not continuations.
 */
export function branchTip(
  start: LedgerNode,
  childrenOf: (id: NodeId) => readonly LedgerNode[],
): NodeId {
  let best = start;
  let bestIsLeaf = false;
  const stack: LedgerNode[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    const kids = childrenOf(node.id).filter(
      (c) => c.kind !== "summary" && c.kind !== "notice" && c.callerId !== node.id,
    );
    if (kids.length === 0 && (!bestIsLeaf || node.seq > best.seq)) {
      best = node;
      bestIsLeaf = true;
    }
    stack.push(...kids);
  }
  return best.id;
}
