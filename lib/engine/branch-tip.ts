import { isAttachmentOf } from "./attachment";
import type { NodeId } from "./ids";
import type { LedgerNode } from "./types";

type ChildrenOf = (id: NodeId) => readonly LedgerNode[];

/**
 * The alternatives under `parent`, oldest first: its children minus attachments (side leaves
 * and spawned sub-agent branches), by the engine's rule — the same one behind the graph's
 * `siblingIndex` / `siblingCount`. A tool result is a continuation, not an attachment.
 */
export function versionsUnder(parent: LedgerNode, childrenOf: ChildrenOf): readonly LedgerNode[] {
  return childrenOf(parent.id).filter((c) => !isAttachmentOf(c, parent));
}

/**
 * Where sibling navigation lands: the most recently written leaf of the conversation below
 * `start` (`start` itself when nothing is below it). Switching to another version of a
 * message shows that version's latest continuation, as ChatGPT's `< 2/3 >` does.
 */
export function branchTip(start: LedgerNode, childrenOf: ChildrenOf): NodeId {
  let best = start;
  let bestIsLeaf = false;
  const stack: LedgerNode[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    const kids = versionsUnder(node, childrenOf);
    if (kids.length === 0 && (!bestIsLeaf || node.seq > best.seq)) {
      best = node;
      bestIsLeaf = true;
    }
    stack.push(...kids);
  }
  return best.id;
}
