"use client";

import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { memo, type CSSProperties } from "react";
import type { GraphEdge } from "./flow-node-types";
import type { EdgeData } from "./flow-types";
import s from "./graph.module.css";
import { cx } from "./same-card";

// Inline stroke styles: they must beat React Flow's own `.react-flow__edge-path` rule, which
// a CSS-module class of equal specificity would only do depending on stylesheet order.
function strokeOf(data: EdgeData | undefined): CSSProperties {
  const variant = data?.variant ?? "tree";
  const spine = data?.spine === true;
  const style: CSSProperties = {
    stroke: spine ? "var(--accent)" : variant === "side" ? "var(--edge-side)" : "var(--edge)",
    strokeWidth: spine ? 3 : variant === "side" ? 1.25 : 1.5,
    opacity: data?.dim === true ? 0.25 : data?.faded === true ? 0.5 : 1,
  };
  if (variant === "raw") style.strokeDasharray = "6 5";
  if (variant === "side") style.strokeDasharray = "2 4";
  // A sub-agent's branch: the accent colour, dotted, so it reads as delegated work.
  if (variant === "spawn" && !spine) {
    style.stroke = "var(--accent)";
    style.strokeDasharray = "1 5";
    style.strokeLinecap = "round";
    style.strokeWidth = 2;
  }
  return style;
}

/** predecessor → node; dashed with a "raw context" marker when the branch renders raw. */
function GraphEdgeView(props: EdgeProps<GraphEdge>) {
  const [path] = getBezierPath({
    sourceX: props.sourceX,
    sourceY: props.sourceY,
    sourcePosition: props.sourcePosition,
    targetX: props.targetX,
    targetY: props.targetY,
    targetPosition: props.targetPosition,
  });
  return (
    <>
      <BaseEdge path={path} style={strokeOf(props.data)} interactionWidth={0} />
      {props.label !== undefined && props.label !== null && (
        <EdgeLabelRenderer>
          <div
            className={cx(s.edgeLabel, props.data?.dim === true && s.edgeLabelDim)}
            // Just above the card it leads into, beside the line's last stretch (not on it:
            // the marker must not hide the dashes it explains). At the midpoint, the labels of
            // several forks leaving one capsule's ports met between them and overlapped; by
            // their cards they are a column apart.
            style={{
              transform: `translate(6px, -100%) translate(${props.targetX}px, ${props.targetY - 4}px)`,
            }}
          >
            {props.label}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const GraphEdgeLine = memo(GraphEdgeView);
