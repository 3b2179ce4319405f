import { tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";

/** Opens an empty streaming reply, by default at HEAD (which then moves to it). */
export async function openReply(
  store: SessionStore,
  sessionId: SessionId,
  at: { predecessorId?: NodeId | "head"; advanceHead?: boolean } = {},
): Promise<LedgerNode> {
  const { node } = await store.appendNode({
    sessionId,
    predecessorId: at.predecessorId ?? "head",
    kind: "assistant",
    content: "",
    status: "streaming",
    tokenCount: tokens(0),
    advanceHead: at.advanceHead ?? true,
  });
  return node;
}
