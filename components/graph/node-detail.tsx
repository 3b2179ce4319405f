"use client";

import { useEffect, useState } from "react";
import type { GraphRow } from "@/lib/engine/build-graph";
import { useSession, useSessionStoreApi } from "@/components/session/session-context";
import type { NodeId } from "@/lib/engine/ids";
import { isSideLeafKind } from "@/lib/engine/side-leaf";
import { auditText, capsuleTitle, savingText } from "./card-text";
import { usageText } from "@/components/chat/usage-text";
import { MessageFiles } from "@/components/chat/message-files";
import { attachmentsOf } from "@/lib/engine/types";
import { useSessionActions } from "@/components/chat/use-session-actions";
import p from "./panel.module.css";
import { ReadList } from "./read-list";
import { cx } from "./same-card";
import { HEAD_TITLE } from "./turn-card";

export interface NodeDetailProps {
  readonly row: GraphRow;
  readonly head: boolean;
  /**
   * The row is a summary drawn as a capsule: whether it is unfolded, the real turns under it
   * and (nested) how many summaries it names.
   */
  readonly capsule: {
    readonly expanded: boolean;
    readonly turns: number;
    readonly summaries: number;
  } | null;
  /** The row is folded inside the capsule, so the graph shows the capsule instead. */
  readonly folded: boolean;
  readonly onCheckout: (id: NodeId) => void;
  readonly onToggleCapsule: () => void;
  /** Starts picking a second node to compare this one with. */
  readonly onCompare: (id: NodeId) => void;
  /** Brings a node's card into view (a line of what it read). */
  readonly onReveal: (id: NodeId) => void;
  readonly onClose: () => void;
}

/** What the node is, in words. */
function kindLabel(row: GraphRow): string {
  if (row.superseded_summary === true) return "Replaced summary";
  const base: Record<GraphRow["kind"], string> = {
    root: "System prompt",
    user: "Your message",
    assistant: "Reply",
    tool: "Tool result",
    summary: "Summary",
    notice: "Notice",
  };
  if (row.callerId !== null && row.kind !== "tool") return `${base[row.kind]} · sub-agent`;
  return base[row.kind];
}

const STATUS: Readonly<Record<GraphRow["status"], string | null>> = {
  complete: null,
  streaming: "writing…",
  interrupted: "stopped",
  error: "failed",
};

/**
 * "Audit this summary" (issue 22): probes of its original turns, answered with the summary
 * and with the originals (or, without a model, looked up in its text); the score shows on
 * the capsule and here.
 */
function AuditButton({ summaryId }: { readonly summaryId: NodeId }) {
  const actions = useSessionActions();
  const audit = useSession((s) => s.audits[summaryId]);
  const [running, setRunning] = useState(false);
  return (
    <>
      {audit !== undefined && (
        <span className={p.meta} aria-label="Latest audit">
          {auditText(audit)}
          {audit.score !== null && ` over ${audit.total} probes`}
        </span>
      )}
      <button
        type="button"
        className={p.button}
        disabled={running}
        onClick={() => {
          setRunning(true);
          void actions.audit(summaryId).finally(() => setRunning(false));
        }}
        title="Ask what the original turns said, from the summary and from the originals, and score how much the summary kept"
      >
        {running ? "Auditing…" : "Audit this summary"}
      </button>
    </>
  );
}

/**
 * The selected node in full. Content is plain text in a pre-wrapped block — React escapes
 * it, and nothing here parses markdown or injects HTML, so a node cannot script the page.
 * A reply (or a summary) lists what it read: the exact prompt, one line per message.
 */
export function NodeDetail(props: NodeDetailProps) {
  const { row, capsule } = props;
  // Content and provenance on demand ([R123]): a lean or skeleton copy is fetched whole when
  // opened here; until then its label shows, marked as loading.
  const store = useSessionStoreApi();
  const partial = useSession((s) => s.nodes.get(row.id)?.partial);
  useEffect(() => {
    void store.getState().ensureFull([row.id]);
  }, [row.id, store]);
  // Side leaves cannot become HEAD (checkoutTarget refuses them).
  const checkoutable = !isSideLeafKind(row.kind);
  const metadata = JSON.stringify(row.metadata, null, 2);
  const status = STATUS[row.status];
  const read = row.kind === "assistant" || row.kind === "summary";
  const model = typeof row.metadata.model === "string" ? row.metadata.model : null;
  const usage = row.kind === "assistant" ? usageText(row.metadata.usage) : null;
  const files = attachmentsOf(row);
  return (
    <section className={p.detail} aria-label="Selected node">
      <header className={p.detailHead}>
        <span className={p.detailTitle}>{kindLabel(row)}</span>
        <span className={p.meta}>
          {[
            status,
            model,
            `${row.tokenCount.toLocaleString("en")} tokens`,
            usage === null ? null : `prompt ${usage.text}`,
            read && partial !== "skeleton" && partial !== "reads"
              ? `read ${row.reads.length} ${row.reads.length === 1 ? "message" : "messages"}`
              : null,
          ]
            .filter((x) => x !== null)
            .join(" · ")}
        </span>
        <span className={p.spacer} />
        {capsule !== null && (
          <button
            type="button"
            className={p.button}
            aria-expanded={capsule.expanded}
            onClick={props.onToggleCapsule}
          >
            {capsule.expanded
              ? capsule.summaries > 0
                ? "Fold the summaries"
                : "Fold the originals"
              : capsule.summaries > 0
                ? "Show the summaries inside"
                : "Show the original turns"}
          </button>
        )}
        {row.kind === "summary" && <AuditButton summaryId={row.id} />}
        {checkoutable && (
          <button
            type="button"
            className={p.button}
            onClick={() => props.onCompare(row.id)}
            title="Compare this branch with another, side by side (C, then pick a node)"
          >
            Compare…
          </button>
        )}
        {checkoutable &&
          (props.head ? (
            <span className={p.here} title={HEAD_TITLE}>
              You are here
            </span>
          ) : (
            <button
              type="button"
              className={cx(p.button, p.primary)}
              onClick={() => props.onCheckout(row.id)}
              title="Check out this node: HEAD moves here, the transcript shows its branch and your next message continues from it (Enter)"
            >
              Continue from here
            </button>
          ))}
        <button
          type="button"
          className={p.close}
          aria-label="Close details"
          onClick={props.onClose}
        >
          ×
        </button>
      </header>
      <div className={p.detailBody}>
        {capsule !== null && (
          <p className={p.note}>
            {capsuleTitle(capsule.turns, capsule.summaries)}
            {capsule.summaries > 0 ? ` · ${capsule.turns} earlier turns` : ""}: on this branch the
            model reads it instead of the original turns · {savingText(row.tokensSaved ?? 0)}
          </p>
        )}
        {props.folded && (
          <p className={p.note}>
            Summarised: the capsule stands in for this turn — open it to see this turn in place.
          </p>
        )}
        {row.rawFork && (
          <p className={p.note} title="This branch renders raw context">
            Forked before the summary: this branch reads the original turns, not the summary.
          </p>
        )}
        {partial === "skeleton" && <p className={p.note}>Loading the whole text…</p>}
        <MessageFiles sessionId={row.sessionId} files={files} />
        {(row.content !== "" || files.length === 0) && (
          <pre className={p.content} aria-busy={partial !== undefined}>
            {row.content === "" ? "(empty)" : row.content}
          </pre>
        )}
        {read && row.reads.length > 0 && (
          <details className={p.disclosure} open>
            <summary>
              {row.kind === "summary" ? "What its summariser read" : "What it read"}
            </summary>
            <ReadList
              reads={row.reads}
              promptTokens={row.metadata.usage?.promptTokens}
              onReveal={props.onReveal}
            />
          </details>
        )}
        <details className={p.disclosure}>
          <summary>Metadata</summary>
          <pre className={p.json}>{metadata}</pre>
          <pre className={p.json}>
            {JSON.stringify(
              { id: row.id, seq: row.seq, createdAt: row.createdAt, reads: row.reads },
              null,
              2,
            )}
          </pre>
        </details>
      </div>
    </section>
  );
}
