"use client";

import { useEffect } from "react";
import type { GraphRow } from "@/lib/engine/build-graph";
import { useSession, useSessionStoreApi } from "@/components/session/session-context";
import type { NodeId } from "@/lib/engine/ids";
import { isSideLeafKind } from "@/lib/engine/side-leaf";
import { savingText } from "./card-text";
import p from "./panel.module.css";
import { cx } from "./same-card";
import { ROLE } from "./turn-card";

export interface NodeDetailProps {
  readonly row: GraphRow;
  readonly head: boolean;
  /** The row is the active summary; `expanded` says whether its capsule is unfolded. */
  readonly capsule: { readonly expanded: boolean } | null;
  /** The row is folded inside the capsule, so the graph shows the capsule instead. */
  readonly folded: boolean;
  readonly onCheckout: (id: NodeId) => void;
  readonly onToggleCapsule: () => void;
  readonly onClose: () => void;
}

function kindLabel(row: GraphRow): string {
  if (row.superseded_summary === true) return "summary (superseded)";
  if (row.callerId !== null && row.kind !== "tool") return `${ROLE[row.kind]} · sub-agent`;
  return ROLE[row.kind];
}

/**
 * The selected node in full. Content is plain text in a pre-wrapped block — React escapes
 * it, and nothing here parses markdown or injects HTML, so a node cannot script the page.
 */
export function NodeDetail(props: NodeDetailProps) {
  const { row, capsule } = props;
  // Content and provenance on demand ([R123]): a lean or skeleton copy is fetched whole when
  // opened here; until then its label shows, marked as loading.
  const store = useSessionStoreApi();
  const partial = useSession((s) => s.nodes[row.id]?.partial);
  useEffect(() => {
    void store.getState().ensureFull([row.id]);
  }, [row.id, store]);
  // Side leaves cannot become HEAD (checkoutTarget refuses them).
  const checkoutable = !isSideLeafKind(row.kind);
  const metadata = JSON.stringify(row.metadata, null, 2);
  return (
    <section className={p.detail} aria-label="Selected node">
      <header className={p.detailHead}>
        <span className={p.detailTitle}>{kindLabel(row)}</span>
        <span className={p.meta}>
          #{row.seq} · {row.status} · {row.tokenCount} tokens · read {row.reads.length} nodes
        </span>
        <span className={p.spacer} />
        {capsule !== null && (
          <button
            type="button"
            className={p.button}
            aria-expanded={capsule.expanded}
            onClick={props.onToggleCapsule}
          >
            {capsule.expanded ? "Fold" : "Unfold"}
          </button>
        )}
        {checkoutable && (
          <button
            type="button"
            className={cx(p.button, p.primary)}
            disabled={props.head}
            onClick={() => props.onCheckout(row.id)}
            title="Move HEAD here; the transcript follows (Enter)"
          >
            {props.head ? "HEAD" : "Checkout"}
          </button>
        )}
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
            Summary of {row.covers_ids?.length ?? 0} turns · {savingText(row.tokensSaved ?? 0)}
            {row.reads.length > 0 ? " · its summariser read the marked nodes" : ""}
          </p>
        )}
        {props.folded && (
          <p className={p.note}>Folded into the summary capsule — unfold it to see this turn.</p>
        )}
        {row.rawFork && (
          <p className={p.note}>
            This branch forks from inside the summarised segment and renders raw context.
          </p>
        )}
        {partial === "skeleton" && <p className={p.note}>Loading the whole text…</p>}
        <pre className={p.content} aria-busy={partial !== undefined}>
          {row.content === "" ? "(empty)" : row.content}
        </pre>
        <details className={p.disclosure}>
          <summary>Metadata</summary>
          <pre className={p.json}>{metadata}</pre>
          <pre className={p.json}>
            {JSON.stringify({ id: row.id, createdAt: row.createdAt, reads: row.reads }, null, 2)}
          </pre>
        </details>
      </div>
    </section>
  );
}
