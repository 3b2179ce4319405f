import { assertNever } from "./assert-never";
import type { NodeId } from "./ids";
import type { LedgerNode } from "./types";

/** One append, as the store sees it under the session's write lock. */
export interface HeadAdvanceInput {
  /** The session's HEAD at the moment of the append (read under the write lock). */
  readonly currentHeadId: NodeId | null;
  readonly node: Pick<LedgerNode, "kind" | "predecessorId">;
  /** The turn's head policy: false for every write of a spawned sub-agent turn. */
  readonly advanceHead: boolean;
}

/**
 * The append rule of compaction.md §5: an append moves HEAD to the new node only when it
 * extends the chain — its predecessor is the current HEAD — and the turn allows it. Any
 * other insert (a summary splice, a side-branch write, a notice) leaves HEAD alone; a fork
 * the user asked for moves HEAD through an explicit `setHead` instead (see {@link planTurn}).
 * A ROOT becomes HEAD only of a session that has none.
 */
export function shouldAdvanceHead(input: HeadAdvanceInput): boolean {
  if (!input.advanceHead) return false;
  const { kind, predecessorId } = input.node;
  switch (kind) {
    case "summary":
    case "notice":
      return false;
    case "root":
      return input.currentHeadId === null;
    case "user":
    case "assistant":
    case "tool":
      return predecessorId !== null && predecessorId === input.currentHeadId;
    default:
      return assertNever(kind, "node kind");
  }
}
