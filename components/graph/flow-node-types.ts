import { Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import {
  HANDLE,
  PORT_INSET,
  type CapsuleData,
  type EdgeData,
  type FlowEdge,
  type FlowNode,
  type FrameData,
  type Port,
  type SideData,
  type TurnData,
} from "./flow-types";

/** The layout's plain types, as React Flow sees them. */
export type TurnNode = Node<TurnData, "turn">;
export type CapsuleNode = Node<CapsuleData, "capsule">;
export type FrameNode = Node<FrameData, "frame">;
export type SideNode = Node<SideData, "side">;
export type GraphNode = TurnNode | CapsuleNode | FrameNode | SideNode;
export type GraphEdge = Edge<EdgeData, "spindle">;

// React Flow's default handle is 6px square, centred on the card's border; ports are 9px.
const DOT = 6;
const PORT = 9;

function dot(
  id: string,
  type: "source" | "target",
  position: Position,
  x: number,
  y: number,
  size = DOT,
): NodeHandle {
  return { id, type, position, x: x - size / 2, y: y - size / 2, width: size, height: size };
}

function cardHandles(width: number, height: number): NodeHandle[] {
  return [
    dot(HANDLE.in, "target", Position.Top, width / 2, 0),
    dot(HANDLE.out, "source", Position.Bottom, width / 2, height),
    dot(HANDLE.side, "source", Position.Right, width, height / 2),
  ];
}

function portHandles(width: number, height: number, ports: readonly Port[]): NodeHandle[] {
  const span = width - 2 * PORT_INSET;
  return ports.map((p) =>
    dot(p.id, "source", Position.Bottom, PORT_INSET + span * p.at, height, PORT),
  );
}

/**
 * A layout node as a React Flow node, with the geometry React Flow would otherwise measure
 * from the DOM: size and handle positions (they mirror the cards' <Handle>s). Without
 * `measured` and `handles` React Flow would treat each node as new and render all of them
 * once to measure them, defeating `onlyRenderVisibleElements`. At compile time this is also
 * the proof that the layout's types map 1:1 onto React Flow's.
 */
function toFlowNode(node: FlowNode): GraphNode {
  // Field by field, not a spread: the page's cards may hold more than React Flow's node (a
  // turn card is a class whose position is itself, its line on it: layout-client.ts).
  const base = {
    id: node.id,
    position: { x: node.position.x, y: node.position.y },
    width: node.width,
    height: node.height,
    measured: { width: node.width, height: node.height },
  };
  switch (node.type) {
    case "turn":
      return {
        ...base,
        type: "turn",
        data: node.data,
        handles: cardHandles(node.width, node.height),
      };
    case "capsule":
      return {
        ...base,
        type: "capsule",
        data: node.data,
        handles: [
          ...cardHandles(node.width, node.height),
          ...portHandles(node.width, node.height, node.data.ports),
        ],
      };
    case "frame":
      // Only its capsule and caption take the pointer: an unfolded nested summary's frame
      // holds frames of its own, whose edges would otherwise cover the outer caption's Fold
      // (and the outer frame the inner ones' capsules).
      return {
        ...base,
        type: "frame",
        data: node.data,
        handles: [],
        style: { pointerEvents: "none" },
      };
    case "side":
      return {
        ...base,
        type: "side",
        data: node.data,
        handles: [dot(HANDLE.in, "target", Position.Left, 0, node.height / 2)],
      };
  }
}

const flowMemo = new WeakMap<FlowNode, GraphNode>();

/**
 * {@link toFlowNode}, once per layout node: a card the layout kept (the same object) is the
 * same React Flow node, so React Flow re-adopts only the cards that changed.
 */
export function flowNodeOf(node: FlowNode): GraphNode {
  let out = flowMemo.get(node);
  if (out === undefined) {
    out = toFlowNode(node);
    flowMemo.set(node, out);
  }
  return out;
}

/** The layout's nodes and edges as React Flow's. */
export function toFlow(layout: {
  readonly nodes: readonly FlowNode[];
  readonly edges: FlowEdge[];
}): {
  nodes: GraphNode[];
  edges: GraphEdge[];
} {
  return { nodes: layout.nodes.map(flowNodeOf), edges: layout.edges };
}
