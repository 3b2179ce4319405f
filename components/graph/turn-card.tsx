"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, useMemo, useState } from "react";
import type { NodeKind, NodeStatus } from "@/lib/engine/types";
import { PaperclipIcon } from "@/components/ui/file-icons";
import { useSession } from "@/components/session/session-context";
import { cardText } from "./card-text";
import type { TurnNode } from "./flow-node-types";
import { HANDLE } from "./flow-types";
import s from "./graph.module.css";
import { cx, sameCard } from "./same-card";

/** The card's role line, in words. */
export const ROLE: Readonly<Record<NodeKind, string>> = {
  root: "system prompt",
  user: "you",
  assistant: "reply",
  tool: "tool result",
  summary: "summary",
  notice: "notice",
};

const KIND_CLASS: Readonly<Record<NodeKind, string | undefined>> = {
  root: s.system,
  user: s.user,
  assistant: s.assistant,
  tool: s.tool,
  summary: undefined,
  notice: undefined,
};

export function StatusMark({ status }: { readonly status: NodeStatus }) {
  switch (status) {
    case "streaming":
      return <span className={s.pulse} role="img" aria-label="streaming" title="Streaming" />;
    case "interrupted":
      return (
        <span className={cx(s.tag, s.warnTag)} title="Stopped before it finished (interrupted)">
          stopped
        </span>
      );
    case "error":
      return <span className={cx(s.tag, s.errorTag)}>error</span>;
    case "complete":
      return null;
  }
}

// Drawn, not a glyph: the branch characters (⑂, ⎇) are missing from common UI fonts.
function ForkIcon() {
  return (
    <svg width="9" height="10" viewBox="0 0 9 10" aria-hidden className={s.forkIcon}>
      <path d="M2 1v8M2 6c0-2 5-1.5 5-4.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  );
}

/** What HEAD means, for the tooltips that explain it. */
export const HEAD_TITLE =
  "HEAD — where you are: the transcript shows this branch, and your next message continues from here";

/** "1 attachment", "3 attachments": the paperclip mark's name. */
export function attachmentsLabel(count: number): string {
  return `${count} ${count === 1 ? "attachment" : "attachments"}`;
}

/** One conversation node: role, first line, status, attachments, fork badge, HEAD. */
function TurnCardView({ id, data }: NodeProps<TurnNode>) {
  const selected = useSession((st) => st.selectedId === id);
  // The text is the store's node's (the page's cards carry none, [R138]); a node's copy
  // changes only structurally, so a streamed token re-renders no card.
  const node = useSession((st) => st.nodes.get(id));
  // A node just removed keeps its card until the worker's next layout: it keeps its text
  // (the text last shown, kept in state as React's "adjusting state on a prop change").
  const fromStore = useMemo(() => (node === undefined ? null : cardText(node)), [node]);
  const [lastText, setLastText] = useState(data.text ?? "");
  if (fromStore !== null && fromStore !== lastText) setLastText(fromStore);
  const text = fromStore ?? lastText;
  return (
    <div
      className={cx(
        s.card,
        KIND_CLASS[data.kind],
        data.spine && s.spine,
        data.head && s.head,
        data.covered && s.coveredCard,
        data.status === "error" && s.error,
        // The selected reply is what the marks are about: it never dims.
        data.glow !== null && !(selected && data.glow === "dim") && s[data.glow],
        selected && s.selected,
      )}
      aria-current={data.head ? "true" : undefined}
    >
      <Handle type="target" position={Position.Top} id={HANDLE.in} className={s.handle} />
      <div className={s.cardHead}>
        <span className={s.role}>
          {ROLE[data.kind]}
          {data.spawned ? " · sub-agent" : ""}
        </span>
        <span className={s.tags}>
          <StatusMark status={data.status} />
          {data.attachments > 0 && (
            <span
              className={cx(s.tag, s.fileTag)}
              role="img"
              aria-label={attachmentsLabel(data.attachments)}
              title={`Sent with ${attachmentsLabel(data.attachments)}`}
            >
              <PaperclipIcon size={10} className={s.fileIcon} />
              {data.attachments > 1 ? data.attachments : null}
            </span>
          )}
          {data.covered && (
            <span
              className={cx(s.tag, s.originalTag)}
              title="An original turn: the summary above stands in for it"
            >
              original
            </span>
          )}
          {data.sibling !== null && (
            <span className={s.tag} title={`Version ${data.sibling.replace("/", " of ")}`}>
              {data.sibling}
            </span>
          )}
          {data.forks > 1 && (
            <span className={cx(s.tag, s.forkTag)} title={`${data.forks} branches fork here`}>
              <ForkIcon /> {data.forks}
            </span>
          )}
          {data.head && (
            <span className={cx(s.tag, s.headTag)} title={HEAD_TITLE}>
              HEAD
            </span>
          )}
        </span>
      </div>
      <div className={s.text}>{text}</div>
      <Handle type="source" position={Position.Bottom} id={HANDLE.out} className={s.handle} />
      <Handle type="source" position={Position.Right} id={HANDLE.side} className={s.handle} />
    </div>
  );
}

export const TurnCard = memo(TurnCardView, sameCard);
