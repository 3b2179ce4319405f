import { asNodeId, type NodeId } from "./ids";
import type { LedgerNode } from "./types";

/**
 * The covered segment a summary stands in for: its `metadata.covers_ids`, in chain order.
 * Empty for anything that is not a summary, and for a summary whose metadata (a JSON
 * column) holds no array — such a summary covers nothing and so never applies.
 */
export function coversIdsOf(node: LedgerNode): readonly NodeId[] {
  if (node.kind !== "summary") return [];
  const raw: unknown = node.metadata.covers_ids;
  if (!Array.isArray(raw)) return [];
  const ids: NodeId[] = [];
  for (const value of raw) if (typeof value === "string") ids.push(asNodeId(value));
  return ids;
}
