import type { GraphRow } from "@/lib/engine/build-graph";
import type { NodeMetadata } from "@/lib/engine/types";
import { firstLine } from "@/lib/engine/wire-node";

/**
 * What a card reads of a node's metadata: the tool calls' names (cardText) and the files
 * sent with a message (its paperclip mark; a few short records each).
 */
function slimMetadata(metadata: NodeMetadata): NodeMetadata {
  const calls = metadata.tool_calls;
  const files = metadata.attachments;
  return {
    ...(calls !== undefined && calls.length > 0
      ? { tool_calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: "" })) }
      : {}),
    ...(files !== undefined && files.length > 0 ? { attachments: files } : {}),
  };
}

/**
 * A row as the layout worker answers it: what a card shows and how the row hangs in the
 * tree — the first line of its content, the tool calls' names, no reads. A long reply on
 * HEAD's spine is never copied back and forth on a change.
 */
export function slimRow(row: GraphRow): GraphRow {
  // Fields copied by name, not spread (as buildGraph does): spreading is much slower.
  const slim: { -readonly [K in keyof GraphRow]: GraphRow[K] } = {
    id: row.id,
    sessionId: row.sessionId,
    predecessorId: row.predecessorId,
    seq: row.seq,
    kind: row.kind,
    content: firstLine(row.content),
    status: row.status,
    callerId: row.callerId,
    metadata: slimMetadata(row.metadata),
    reads: [],
    tokenCount: row.tokenCount,
    createdAt: row.createdAt,
    onHeadSpine: row.onHeadSpine,
    foldedIn: row.foldedIn,
    rawFork: row.rawFork,
    childCount: row.childCount,
    siblingIndex: row.siblingIndex,
    siblingCount: row.siblingCount,
  };
  if (row.covers_ids !== undefined) slim.covers_ids = row.covers_ids;
  if (row.superseded_summary !== undefined) slim.superseded_summary = row.superseded_summary;
  if (row.tokensSaved !== undefined) slim.tokensSaved = row.tokensSaved;
  return slim;
}
