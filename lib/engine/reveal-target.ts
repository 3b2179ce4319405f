import { assertNever } from "./assert-never";
import { branchTip } from "./branch-tip";
import { coversIdsOf } from "./covers-ids-of";
import type { NodeId } from "./ids";
import type { LedgerIndex } from "./ledger-index";
import { spineOf } from "./spine-of";
import { isNestedSummary } from "./summary-turns";
import type { LedgerNode } from "./types";

export interface RevealTarget {
  /** The node the transcript scrolls to and highlights. */
  readonly focusId: NodeId;
  /** Where HEAD must move for the transcript to show it; null when it already does. */
  readonly checkoutId: NodeId | null;
}

/**
 * Opening a session "at" a node (a search result, `/s/<id>?node=<nodeId>`): the transcript
 * must show that node, in the context of its branch, without cutting the branch short.
 *
 * - A node on HEAD's spine is shown where it is: HEAD does not move.
 * - A node on another branch: HEAD moves to that branch's most recently written leaf below
 *   the node ({@link branchTip}, the rule sibling navigation uses), so the node is on the
 *   spine with everything that followed it — not to the node itself, which would hide its
 *   continuation and make the next message fork from the middle of a conversation.
 * - A summary cannot be checked out ([R5]): it is revealed at the last node it covers that
 *   still exists (its covering position), by the rules above; a notice at the node it hangs
 *   off. One that reaches nothing is shown nowhere (null).
 *
 * Returns null when `nodeId` is not a node of the ledger.
 */
export function revealTarget(
  index: LedgerIndex,
  headId: NodeId | null,
  nodeId: NodeId,
): RevealTarget | null {
  const node = index.byId.get(nodeId);
  if (node === undefined) return null;
  const anchor = anchorOf(index, node);
  if (anchor === undefined) return null;
  const onSpine =
    headId !== null && index.byId.has(headId) && spineOf(headId, index.get).includes(anchor);
  return { focusId: anchor.id, checkoutId: onSpine ? null : branchTip(anchor, index.childrenOf) };
}

/**
 * The conversation node that stands for `node` in a transcript. Reads only `node` and the
 * nodes it names (a summary's covered ids — a nested one's summaries and theirs — a
 * notice's predecessor); {@link revealTarget}
 * then reads HEAD's spine and the subtree under the anchor — a caller may index just those.
 */
export function anchorOf(index: LedgerIndex, node: LedgerNode, depth = 0): LedgerNode | undefined {
  switch (node.kind) {
    case "summary": {
      // A nested summary's covers name summaries: its anchor is theirs, the last that has one.
      if (isNestedSummary(node)) {
        if (depth > index.nodes.length) return undefined;
        for (const id of [...coversIdsOf(node)].reverse()) {
          const inner = index.byId.get(id);
          const anchor = inner?.kind === "summary" ? anchorOf(index, inner, depth + 1) : undefined;
          if (anchor !== undefined) return anchor;
        }
        return undefined;
      }
      return [...coversIdsOf(node)]
        .reverse()
        .map((id) => index.byId.get(id))
        .find((n) => n !== undefined);
    }
    case "notice":
      return node.predecessorId === null ? undefined : index.byId.get(node.predecessorId);
    case "root":
    case "user":
    case "assistant":
    case "tool":
      return node;
    default:
      return assertNever(node.kind, "node kind");
  }
}
