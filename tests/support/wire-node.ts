import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { NodeKind } from "@/lib/engine/types";
import type { WireNode } from "@/lib/engine/wire-node";

/**
 * A sealed node of session "S1" as the wire carries it, for the browser store's tests:
 * node `x` under `pred`, one token, no reads; `extra` overrides any field.
 */
export function wireNode(
  x: string,
  pred: string | null,
  seq: number,
  kind: NodeKind,
  extra: Partial<WireNode> = {},
): WireNode {
  return {
    id: asNodeId(x),
    sessionId: asSessionId("S1"),
    predecessorId: pred === null ? null : asNodeId(pred),
    seq,
    kind,
    content: x,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: tokens(1),
    createdAt: "2026-12-01T00:00:00.000Z",
    ...extra,
  };
}
