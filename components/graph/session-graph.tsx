"use client";

import "@xyflow/react/dist/style.css";
import { ReactFlowProvider } from "@xyflow/react";
import type { NodeId } from "@/lib/engine/ids";
import { GraphCanvas } from "./graph-canvas";

export interface SessionGraphProps {
  /** Move HEAD to a node (double-click, Enter, or the detail panel's Checkout). */
  readonly onCheckout: (id: NodeId) => void;
}

/**
 * The live DAG of the session in the surrounding SessionStoreProvider (graph.md). It draws
 * from the same store as the transcript and keeps no copy of the data: the layout is derived
 * on each change, and only React Flow's viewport is its own state. Fills its positioned
 * parent.
 */
export function SessionGraph({ onCheckout }: SessionGraphProps) {
  return (
    <ReactFlowProvider>
      <GraphCanvas onCheckout={onCheckout} />
    </ReactFlowProvider>
  );
}
