"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import {
  selectStreaming,
  useGraph,
  useHeadView,
  useSession,
} from "@/components/session/session-context";
import type { SessionState } from "@/components/session/session-store";
import { branchTip, versionsUnder } from "@/lib/engine/branch-tip";
import { MessageView } from "./message-view";
import type { SessionActions } from "./use-session-actions";
import { cx } from "@/components/ui/cx";
import styles from "./transcript.module.css";

const selectBusy = (s: SessionState) => s.busy !== null || selectStreaming(s);
const selectSelected = (s: { selectedId: NodeId | null }) => s.selectedId;
const selectNodes = (s: { nodes: Readonly<Record<string, LedgerNode>> }) => s.nodes;

/**
 * HEAD's branch, every turn of it. Where a summary stands in, the turns it covers stay
 * visible (dimmed) under a card with the summary the model reads instead.
 */
export function Transcript({ actions }: { actions: SessionActions }) {
  const { spine, rendering } = useHeadView();
  const graph = useGraph();
  const busy = useSession(selectBusy);
  const selectedId = useSession(selectSelected);
  const nodes = useSession(selectNodes);
  const select = useSession((s) => s.select);
  const bottom = useRef<HTMLDivElement>(null);
  const [showSystem, setShowSystem] = useState(false);

  const rows = useMemo(() => new Map(graph?.nodes.map((r) => [r.id, r] as const)), [graph]);
  const summary = useMemo(() => {
    const m = rendering?.messages.find((x) => x.kind === "summary");
    return m ? nodes[m.id] : undefined;
  }, [rendering, nodes]);
  const covered = useMemo(() => new Set(summary?.metadata.covers_ids ?? []), [summary]);
  const firstCovered = spine.find((n) => covered.has(n.id))?.id;

  const children = useMemo(() => {
    const map = new Map<NodeId, LedgerNode[]>();
    for (const n of Object.values(nodes)) {
      if (!n.predecessorId) continue;
      const list = map.get(n.predecessorId) ?? [];
      list.push(n);
      map.set(n.predecessorId, list);
    }
    for (const list of map.values()) list.sort((a, b) => a.seq - b.seq);
    return map;
  }, [nodes]);

  const last = spine.at(-1);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [last?.id, last?.content.length]);

  const onSibling = (node: LedgerNode, delta: -1 | 1) => {
    const parent = node.predecessorId ? nodes[node.predecessorId] : undefined;
    if (!parent) return;
    const childrenOf = (id: NodeId) => children.get(id) ?? [];
    const versions = versionsUnder(parent, childrenOf);
    const target = versions[versions.findIndex((v) => v.id === node.id) + delta];
    if (target) void actions.checkout(branchTip(target, childrenOf));
  };

  const root = spine[0];
  const turns = spine.slice(1);
  // Deleting HEAD's branch needs somewhere to fall back to: a fork somewhere above it.
  const forkedAbove = turns.some((n) => (rows.get(n.id)?.siblingCount ?? 1) > 1);
  return (
    <div className={styles.transcript} aria-label="Transcript">
      {root && (
        <div className={styles.systemPrompt}>
          <button className="link-btn" onClick={() => setShowSystem((v) => !v)}>
            {showSystem ? "Hide" : "Show"} system prompt
          </button>
          {showSystem && <pre>{root.content}</pre>}
        </div>
      )}
      {turns.length === 0 && (
        <p className={styles.empty}>Send a message to start the conversation.</p>
      )}
      {turns.map((node) => {
        const row = rows.get(node.id);
        return (
          <div key={node.id}>
            {node.id === firstCovered && summary && (
              <details className={cx("summary-card", styles.summary)} open={false}>
                <summary>
                  <strong>
                    The model reads a summary instead of the {covered.size} turns below.
                  </strong>
                  <span className={styles.summaryFirst}>
                    {summary.content.split("\n").find((l) => l.trim())}
                  </span>
                </summary>
                <pre className={styles.summaryText}>{summary.content}</pre>
              </details>
            )}
            <MessageView
              node={node}
              siblingIndex={row?.siblingIndex ?? 0}
              siblingCount={row?.siblingCount ?? 1}
              covered={covered.has(node.id)}
              busy={busy}
              selected={selectedId === node.id}
              onRetry={(id) => void actions.retry(id)}
              onEdit={(id, content) => void actions.edit(id, content)}
              onSibling={onSibling}
              onSelect={(id) => select(selectedId === id ? null : id)}
              deletable={node.id === last?.id && forkedAbove && (row?.childCount ?? 0) === 0}
              onDeleteBranch={(id) => void actions.deleteBranch(id)}
              onCheckout={(id) => void actions.checkout(id)}
            />
          </div>
        );
      })}
      <div ref={bottom} />
    </div>
  );
}
