import { assertNever } from "./assert-never";
import type { LedgerNode } from "./types";

/**
 * Whether a spine node contributes its own message to a rendering. Notices are for people;
 * an `error` node records a failed call, not conversation, so a turn after it proceeds as if
 * it were absent; a summary reaches a prompt only by substitution (compaction.md §3), never
 * by lying on a spine.
 */
export function rendersInPlace(node: LedgerNode): boolean {
  switch (node.kind) {
    case "root":
    case "user":
    case "assistant":
    case "tool":
      return node.status !== "error";
    case "summary":
    case "notice":
      return false;
    default:
      return assertNever(node.kind, "node kind");
  }
}
