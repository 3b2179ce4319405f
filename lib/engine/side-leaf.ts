import { assertNever } from "./assert-never";
import type { NodeKind } from "./types";

/**
 * Summaries and notices are side leaves: they hang off a node without continuing its
 * conversation, so nothing is ever appended under them, HEAD never rests on them, and they
 * are never on a spine (compaction.md §3: a summary is "a node nothing points to").
 */
export function isSideLeafKind(kind: NodeKind): boolean {
  switch (kind) {
    case "summary":
    case "notice":
      return true;
    case "root":
    case "user":
    case "assistant":
    case "tool":
      return false;
    default:
      return assertNever(kind, "node kind");
  }
}
