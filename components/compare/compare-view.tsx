"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useMemo, useRef } from "react";
import type { NodeId } from "@/lib/engine/ids";
import type { WireNode } from "@/lib/engine/wire-node";
import { cx } from "@/components/ui/cx";
import styles from "./compare.module.css";
import { wordDiff, type DiffPart } from "./word-diff";

/** One column of the compare view: a branch, a replay, another model's answer. */
export interface CompareColumn {
  readonly key: string;
  readonly title: string;
  /** A line under the title ("3 turns after the fork"). */
  readonly note?: string;
  /** The column's node at each aligned row; null where this column has no turn. */
  readonly rows: readonly (NodeId | null)[];
  /** What the column offers ("Continue from here"). */
  readonly action?: {
    readonly label: string;
    readonly title: string;
    readonly run: () => void;
    readonly disabled?: boolean;
  };
}

export interface CompareViewProps {
  /** Two or more columns; the first is the baseline the others are diffed against. */
  readonly columns: readonly CompareColumn[];
  /** A node as held now: its text and reads once fetched whole. */
  readonly nodeOf: (id: NodeId) => WireNode | undefined;
  /** Asks for nodes whole (text, reads) as their rows come into view. */
  readonly ensureFull: (ids: readonly NodeId[]) => void;
  readonly label: string;
}

const ROLE: Readonly<Record<WireNode["kind"], string>> = {
  root: "System",
  user: "You",
  assistant: "Reply",
  tool: "Tool result",
  summary: "Summary",
  notice: "Notice",
};

const ESTIMATE = 180;
const OVERSCAN = 4;

/** What a reply was made from and by: model, tokens, what it read. */
function metaOf(node: WireNode, nodeOf: (id: NodeId) => WireNode | undefined): string {
  const parts: string[] = [];
  const model = node.metadata.model;
  if (typeof model === "string") parts.push(model);
  parts.push(`${node.tokenCount.toLocaleString("en")} tokens`);
  if (node.kind === "assistant" && node.partial === undefined) {
    const summary = node.reads.some((id) => nodeOf(id)?.kind === "summary");
    parts.push(
      `read ${node.reads.length} ${node.reads.length === 1 ? "message" : "messages"}${summary ? ", a summary among them" : ""}`,
    );
  }
  if (node.status === "interrupted") parts.push("stopped");
  if (node.status === "error") parts.push("failed");
  return parts.join(" · ");
}

function Parts({ parts }: { readonly parts: readonly DiffPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.change === "added" ? (
          <ins key={i} className={styles.added}>
            {part.text}
          </ins>
        ) : part.change === "removed" ? (
          <del key={i} className={styles.removed}>
            {part.text}
          </del>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** How a cell's text is marked against the baseline of its row. */
type Marking = "none" | "same" | "left" | "right" | "inline" | "too-different";

interface CellProps {
  readonly node: WireNode | undefined;
  /** No node: this is the row right after the column's last turn. */
  readonly ended: boolean;
  readonly parts: readonly DiffPart[] | null;
  readonly marking: Marking;
  readonly nodeOf: (id: NodeId) => WireNode | undefined;
  readonly column: string;
}

const Cell = memo(function Cell({ node, ended, parts, marking, nodeOf, column }: CellProps) {
  if (node === undefined) {
    return ended ? (
      <div className={cx(styles.cell, styles.empty)} data-column={column}>
        <span className={styles.emptyNote}>End of this branch</span>
      </div>
    ) : (
      <div data-column={column} />
    );
  }
  const loading = node.partial === "skeleton";
  return (
    <article
      className={cx(styles.cell, node.kind === "user" && styles.user)}
      data-column={column}
      data-node-id={node.id}
      aria-busy={loading}
    >
      <header className={styles.cellHead}>
        <span className={styles.role}>{ROLE[node.kind]}</span>
        <span className={styles.meta}>{metaOf(node, nodeOf)}</span>
        {marking === "same" && <span className={styles.sameTag}>same text</span>}
        {marking === "too-different" && (
          <span className={styles.sameTag} title="Too long and too different to mark word by word">
            not marked
          </span>
        )}
      </header>
      <div className={styles.text}>
        {parts !== null ? <Parts parts={parts} /> : node.content}
        {loading && <span className={styles.loading}> loading…</span>}
      </div>
    </article>
  );
});

/** The cells of one row, each with its marks against the row's baseline (column 0). */
function rowCells(
  columns: readonly CompareColumn[],
  row: number,
  nodeOf: (id: NodeId) => WireNode | undefined,
): { node: WireNode | undefined; parts: readonly DiffPart[] | null; marking: Marking }[] {
  const nodes = columns.map((c) => {
    const id = c.rows[row];
    return id === null || id === undefined ? undefined : nodeOf(id);
  });
  const base = nodes[0];
  const whole = (n: WireNode | undefined): n is WireNode =>
    n !== undefined && n.partial !== "skeleton";
  const out: { node: WireNode | undefined; parts: readonly DiffPart[] | null; marking: Marking }[] =
    nodes.map((node) => ({ node, parts: null, marking: "none" }));
  if (!whole(base)) return out;
  let baseParts: readonly DiffPart[] | null = null;
  let baseMarking: Marking = "none";
  nodes.forEach((node, i) => {
    if (i === 0 || !whole(node) || node.kind !== base.kind) return;
    if (node.content === base.content) {
      out[i] = { node, parts: null, marking: "same" };
      if (baseMarking === "none") baseMarking = "same";
      return;
    }
    const diff = wordDiff(base.content, node.content);
    if (diff === null) {
      out[i] = { node, parts: null, marking: "too-different" };
      return;
    }
    if (columns.length === 2) {
      out[i] = { node, parts: diff.right, marking: "right" };
      baseParts = diff.left;
      baseMarking = "left";
    } else {
      out[i] = { node, parts: diff.inline, marking: "inline" };
    }
  });
  out[0] = { node: base, parts: baseParts, marking: baseMarking };
  return out;
}

const Row = memo(function Row({
  columns,
  row,
  nodeOf,
}: {
  readonly columns: readonly CompareColumn[];
  readonly row: number;
  readonly nodeOf: (id: NodeId) => WireNode | undefined;
}) {
  const cells = useMemo(() => rowCells(columns, row, nodeOf), [columns, row, nodeOf]);
  return (
    <div className={styles.row} style={{ gridTemplateColumns: `repeat(${columns.length}, 1fr)` }}>
      {cells.map((cell, i) => (
        <Cell
          key={columns[i]?.key ?? i}
          node={cell.node}
          ended={columns[i]?.rows.length === row}
          parts={cell.parts}
          marking={cell.marking}
          nodeOf={nodeOf}
          column={columns[i]?.title ?? ""}
        />
      ))}
    </div>
  );
});

/**
 * Columns side by side, aligned row by row, with a word-level diff of each row's differing
 * texts against the first column (issue 20; issue 22 shows replays with it). Rows are
 * virtualised, so two 2,000-turn branches mount only what is on screen, and each row asks
 * for its nodes whole as it comes into view.
 */
export function CompareView({ columns, nodeOf, ensureFull, label }: CompareViewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = columns.reduce((n, c) => Math.max(n, c.rows.length), 0);
  // eslint-disable-next-line react-hooks/incompatible-library -- read fresh every render
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATE,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    const ids: NodeId[] = [];
    for (let r = first; r <= last; r++) {
      for (const c of columns) {
        const id = c.rows[r];
        if (id !== null && id !== undefined) ids.push(id);
      }
    }
    if (ids.length > 0) ensureFull(ids);
  }, [first, last, columns, ensureFull]);

  return (
    <div className={styles.view} aria-label={label}>
      <div
        className={styles.heads}
        style={{ gridTemplateColumns: `repeat(${columns.length}, 1fr)` }}
      >
        {columns.map((c) => (
          <div key={c.key} className={styles.colHead}>
            <div className={styles.colTitle}>{c.title}</div>
            {c.note !== undefined && <div className={styles.colNote}>{c.note}</div>}
            {c.action !== undefined &&
              (c.action.disabled === true ? (
                // Where you are already: a label, not a pale disabled button.
                <span className={styles.here}>{c.action.label}</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={c.action.run}
                  title={c.action.title}
                >
                  {c.action.label}
                </button>
              ))}
          </div>
        ))}
      </div>
      {/* Focusable, so the rows scroll from the keyboard too. */}
      <div ref={scroller} className={styles.scroller} tabIndex={0} aria-label={`${label}: rows`}>
        <div className={styles.sizer} style={{ height: virtualizer.getTotalSize() }}>
          <div
            className={styles.window}
            style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}
          >
            {items.map((item) => (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement}>
                <Row columns={columns} row={item.index} nodeOf={nodeOf} />
              </div>
            ))}
          </div>
        </div>
        {count === 0 && <p className={styles.nothing}>Nothing to compare after the fork.</p>}
      </div>
    </div>
  );
}
