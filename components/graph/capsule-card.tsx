"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { useSession } from "@/components/session/session-context";
import { auditText, capsuleTitle, savingText } from "./card-text";
import type { CapsuleNode, FrameNode } from "./flow-node-types";
import { HANDLE, PORT_INSET, SIZE } from "./flow-types";
import s from "./graph.module.css";
import { cx, sameCard } from "./same-card";

/** What the capsule says, folded or at the top of its frame: what it is, in words. */
function CapsuleFace(props: {
  readonly summaryId: string;
  readonly turns: number;
  readonly summaries: number;
  readonly tokensSaved: number;
  readonly text: string;
  readonly head: boolean;
}) {
  return (
    <>
      <div className={s.capsuleHead}>
        <span
          className={s.capsuleTitle}
          title={props.summaries > 0 ? `${props.turns} earlier turns under it` : undefined}
        >
          {capsuleTitle(props.turns, props.summaries)}
        </span>
        {props.head && (
          <span className={s.tags}>
            <span
              className={cx(s.tag, s.headTag)}
              title="HEAD — where you are — is on one of the summarised turns: that branch reads them as written"
            >
              HEAD inside
            </span>
          </span>
        )}
      </div>
      <div className={s.capsuleWhat}>
        — the model reads this instead{" "}
        <span className={s.saving}>· {savingText(props.tokensSaved)}</span>
        <AuditTag summaryId={props.summaryId} />
      </div>
      <div className={s.capsuleText}>{props.text}</div>
    </>
  );
}

/** The latest audit of the summary (issue 22), when one was run: its score, in words. */
function AuditTag({ summaryId }: { readonly summaryId: string }) {
  const audit = useSession((st) => st.audits[summaryId]);
  if (audit === undefined) return null;
  const title =
    audit.mode === "model"
      ? `A model answered ${audit.total} questions about the original turns from this summary and from the originals; a judge scored them 0–5 (mean ${audit.score?.toFixed(2) ?? "—"}).`
      : `Fact-retention check (no model): ${audit.found} of ${audit.total} facts, names, files and decisions of the original turns are stated in this summary.`;
  // Beside the saving, where the line has room: in the title's row the full wording ran
  // ~100 px past the capsule's edge. Short on screen, in full for screen readers.
  return (
    <span className={cx(s.tag, s.auditTag, "capsule-audit")} title={title}>
      <span aria-hidden>{auditText(audit, "badge")}</span>
      <span className="visually-hidden">{auditText(audit)}</span>
    </span>
  );
}

/**
 * The folded active summary (graph.md, the capsule). Ports for the branches that fork
 * before the summary sit on the segment bar at their fork positions, so their dashed edge
 * visibly leaves from inside the segment. Clicking it unfolds (handled by the canvas, which
 * also selects the summary).
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
      title={
        data.summaries > 0
          ? "A summary of summaries. Click to see the summaries it stands in for (Space)"
          : "A summary. Click to see the original turns it stands in for (Space)"
      }
    >
      <Handle type="target" position={Position.Top} id={HANDLE.in} className={s.handle} />
      <CapsuleFace
        summaryId={data.summaryId}
        turns={data.turns}
        summaries={data.summaries}
        tokensSaved={data.tokensSaved}
        text={data.text}
        head={data.head}
      />
      {data.readsInside > 0 && (
        <div className={s.hint}>
          {data.readsInside} of the turns it read are inside · click to see them
        </div>
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
          title="A branch forks here, before the summary: it reads the original turns"
        />
      ))}
    </div>
  );
}

export const CapsuleCard = memo(CapsuleCardView, sameCard);

/**
 * The unfolded capsule: the capsule stays where it was, at the top of a frame that holds the
 * original turns in place below it. Its button folds them back.
 */
function FrameCardView({ id, data }: NodeProps<FrameNode>) {
  const selected = useSession((st) => st.selectedId === id);
  const toggleCapsule = useSession((st) => st.toggleCapsule);
  return (
    <div className={cx(s.frame, data.glow === "glow" && s.glow, selected && s.selected)}>
      <div
        className={cx(s.capsule, s.capsuleInFrame, data.spine && s.spine)}
        style={{ width: SIZE.capsule.width, height: SIZE.capsule.height, top: SIZE.framePad }}
      >
        <CapsuleFace
          summaryId={data.summaryId}
          turns={data.turns}
          summaries={data.summaries}
          tokensSaved={data.tokensSaved}
          text={data.text}
          head={data.head}
        />
      </div>
      <div className={s.frameCaption} style={{ top: SIZE.framePad + SIZE.capsule.height + 5 }}>
        {data.summaries > 0 ? (
          <span title="The summaries it stands in for: each one unfolds to its original turns">
            ▾ The {data.summaries} summaries inside
          </span>
        ) : (
          <span title="Covered by the summary: a branch through here reads the summary instead of these">
            ▾ The {data.turns} original turns
          </span>
        )}
        <button
          type="button"
          className={cx(s.frameFold, "nodrag", "nopan")}
          aria-expanded
          title="Fold the original turns back into the summary (Space)"
          onClick={(event) => {
            event.stopPropagation();
            toggleCapsule(data.summaryId);
          }}
        >
          Fold
        </button>
      </div>
    </div>
  );
}

export const FrameCard = memo(FrameCardView, sameCard);
