import type { NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import type { SessionStoreApi } from "./session-store";

/**
 * Lands a branch delete's answer in the deleting tab ([R122]): the ids the server removed
 * (`removed`, the same list its `nodes_removed` event carries, maybe later) leave the store
 * at once, so nothing afterwards picks a deleted version — and only those: a surviving
 * sibling branch stays even when HEAD did not move. The session record is stored without
 * the id list. Returns that record.
 */
export function landBranchDeleted(
  store: SessionStoreApi,
  after: SessionRecord & { readonly removed: readonly NodeId[] },
): SessionRecord {
  const { removed, ...session } = after;
  store.getState().removeNodes(removed);
  store.getState().setSession(session);
  return session;
}
