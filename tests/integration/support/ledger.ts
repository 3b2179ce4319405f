import { tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";

/**
 * One node written straight to the store (no turn, no model): complete, three tokens,
 * HEAD advancing as a turn's would. `streaming` opens a reply whose lease runs `leaseMs`.
 */
export async function appendNode(
  store: SessionStore,
  sessionId: SessionId,
  predecessorId: NodeId | "head",
  kind: "user" | "assistant",
  options: { content?: string; status?: "complete" | "streaming"; leaseMs?: number } = {},
): Promise<LedgerNode> {
  const { node } = await store.appendNode({
    sessionId,
    predecessorId,
    kind,
    content: options.content ?? `${kind} text`,
    status: options.status ?? "complete",
    tokenCount: tokens(3),
    advanceHead: true,
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
  });
  return node;
}

/** `pairs` user/assistant turns appended at HEAD; the last node written (HEAD now). */
export async function appendPairs(
  store: SessionStore,
  sessionId: SessionId,
  pairs: number,
): Promise<LedgerNode | undefined> {
  let last: LedgerNode | undefined;
  for (let i = 0; i < pairs; i++) {
    for (const kind of ["user", "assistant"] as const) {
      last = await appendNode(store, sessionId, "head", kind, { content: `${kind} ${i}` });
    }
  }
  return last;
}
