"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { useSession } from "@/components/session/session-context";
import { savingText } from "./card-text";
import type { CapsuleNode, FrameNode } from "./flow-node-types";
import { HANDLE, PORT_INSET } from "./flow-types";
import s from "./graph.module.css";
import { cx, sameCard } from "./same-card";

/**
 * The folded active summary (graph.md, the capsule). Raw-context ports sit on the segment
 * bar at the fork positions, so a dashed edge visibly leaves from inside the segment.
 * Clicking it unfolds (handled by the canvas, which also selects the summary).
 */
function CapsuleCardView({ id, data }: NodeProps<CapsuleNode>) {
  const selected = useSession((st) => st.selectedId === id);
  return (
    <div
      className={cx(
        s.capsule,
        data.spine && s.spine,
        data.glow !== null && s[data.glow],
        selected && s.selected,
      )}
      role="button"
      aria-expanded={false}
      title="Click to unfold the covered turns"
    >
      <Handle type="target" position={Position.Top} id={HANDLE.in} className={s.handle} />
      <div className={s.capsuleHead}>
        <span className={s.capsuleTitle}>Summary of {data.turns} turns</span>
        <span className={s.saving}>{savingText(data.tokensSaved)}</span>
        {data.head && (
          <span className={s.tags}>
            <span className={cx(s.tag, s.headTag)} title="HEAD is on a covered turn">
              HEAD inside
            </span>
          </span>
        )}
      </div>
      <div className={s.capsuleText}>{data.text}</div>
      {data.readsInside > 0 && (
        <div className={s.hint}>{data.readsInside} read from inside · unfold to see</div>
      )}
      <div className={s.segment} aria-hidden />
      <Handle type="source" position={Position.Bottom} id={HANDLE.out} className={s.handle} />
      <Handle type="source" position={Position.Right} id={HANDLE.side} className={s.handle} />
      {data.ports.map((port) => (
        <Handle
          key={port.id}
          type="source"
          position={Position.Bottom}
          id={port.id}
          className={s.port}
          // Mirrors the handle geometry given to React Flow (flow-node-types.ts).
          style={{ left: `calc(${PORT_INSET}px + (100% - ${2 * PORT_INSET}px) * ${port.at})` }}
          isConnectable={false}
          title="A branch forks here and renders raw"
        />
      ))}
    </div>
  );
}

export const CapsuleCard = memo(CapsuleCardView, sameCard);

/** The unfolded capsule: a frame behind the covered turns; its header folds it back. */
function FrameCardView({ id, data }: NodeProps<FrameNode>) {
  const selected = useSession((st) => st.selectedId === id);
  const toggleCapsule = useSession((st) => st.toggleCapsule);
  return (
    <div className={cx(s.frame, data.glow === "glow" && s.glow, selected && s.selected)}>
      <button
        type="button"
        className={cx(s.frameHeader, "nodrag", "nopan")}
        aria-expanded
        title="Fold the turns back into the summary"
        onClick={(event) => {
          event.stopPropagation();
          toggleCapsule(data.summaryId);
        }}
      >
        <span aria-hidden>▾</span>
        <span className={s.frameText}>{data.text}</span>
        <span className={s.saving}>· {data.turns} turns · fold</span>
      </button>
    </div>
  );
}

export const FrameCard = memo(FrameCardView, sameCard);
