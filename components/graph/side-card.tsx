"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { useSession } from "@/components/session/session-context";
import type { SideNode } from "./flow-node-types";
import { HANDLE, type SideData } from "./flow-types";
import s from "./graph.module.css";
import { cx, sameCard } from "./same-card";
import { StatusMark } from "./turn-card";

const LABEL: Readonly<Record<SideData["kind"], string>> = {
  notice: "notice",
  relic: "replaced summary",
  summary: "summary · covers nothing",
};

/** A side leaf beside its predecessor: a notice, or a relic (faded, marked superseded). */
function SideCardView({ id, data }: NodeProps<SideNode>) {
  const selected = useSession((st) => st.selectedId === id);
  return (
    <div
      className={cx(
        s.side,
        data.kind === "relic" && s.relic,
        data.glow !== null && s[data.glow],
        selected && s.selected,
      )}
      title={
        data.kind === "relic"
          ? "An earlier summary, replaced by a newer one (superseded): nothing reads it any more"
          : undefined
      }
    >
      <Handle type="target" position={Position.Left} id={HANDLE.in} className={s.handle} />
      <div className={s.cardHead}>
        <span className={s.role}>{LABEL[data.kind]}</span>
        <span className={s.tags}>
          <StatusMark status={data.status} />
        </span>
      </div>
      <div className={s.text}>{data.text}</div>
    </div>
  );
}

export const SideCard = memo(SideCardView, sameCard);
