import type { NodeId } from "../engine/ids";
import type { SessionRecord } from "../engine/types";
import type { HeadView } from "../view/head-view";

/**
 * Compaction's part in a turn, as the dispatcher calls it: before the turn, and on a
 * context overflow. The Compactor implements it; the dispatcher knows only this port.
 */
export interface TurnCompaction {
  /** Compacts the branch ending at `parentId` when the budget says so; true if it did. */
  beforeTurn(
    session: SessionRecord,
    parentId: NodeId,
    newMessageTokens: number,
    /** The view of `parentId` when the caller loaded it already (one spine query a turn). */
    view?: HeadView,
  ): Promise<boolean>;
  /** After `provider_overflow`: compacts the branch; true when the turn may retry once. */
  onOverflow(session: SessionRecord, parentId: NodeId): Promise<boolean>;
}
