"use client";

import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { NodeId } from "@/lib/engine/ids";
import type { RenderedContext } from "@/lib/engine/render-context";
import { turnsOf } from "@/lib/engine/summary-turns";
import type { LedgerNode } from "@/lib/engine/types";
import {
  selectStreaming,
  useHeadView,
  useNode,
  useSession,
  useSessionStoreApi,
} from "@/components/session/session-context";
import { withWholeLedger, type SessionState } from "@/components/session/session-store";
import {
  versionBeside,
  versionCount,
  versionStep,
  versionTip,
  versionCountBelow,
} from "@/components/session/versions";
import { MessageView, type MessageViewProps } from "./message-view";
import { useCompare } from "@/components/compare/compare-context";
import type { ReplayRequest, SessionActions } from "./use-session-actions";
import { cx } from "@/components/ui/cx";
import styles from "./transcript.module.css";

const selectBusy = (s: SessionState) => s.busy !== null || selectStreaming(s);
const selectSelected = (s: SessionState) => s.selectedId;
const selectNodes = (s: SessionState) => s.nodes;
const selectReveal = (s: SessionState) => s.reveal;
const selectChildren = (s: SessionState) => s.children;
const selectLeftOut = (s: SessionState) => s.leftOut;

/** A branch this short mounts every row: cheap, and find-in-page sees the whole branch. */
const ALL_ROWS = 60;
/** Rows mounted beyond the visible ones on each side of a long branch. */
const OVERSCAN = 6;
/** A row's height before it is measured. */
const ESTIMATE = 160;
/** The viewport assumed on the server (and in the first browser render, so they match). */
const INITIAL_RECT = { width: 760, height: 900 };
const estimateSize = () => ESTIMATE;
/** Distance from the bottom (px) that still counts as "at the bottom". */
const STICK = 48;

/**
 * HEAD's branch, every turn of it, virtualised ([R125]): a 2,000-turn branch mounts only the
 * rows on screen (plus overscan); each row is measured as it renders. The server renders the
 * tail — the view opens at the bottom — so the page's last messages are in the HTML before
 * any script runs. Where a summary stands in, the turns it covers stay visible (dimmed)
 * under a card with the summary the model reads instead.
 */
export function Transcript({ actions }: { actions: SessionActions }) {
  const { spine, rendering } = useHeadView();
  const busy = useSession(selectBusy);
  const selectedId = useSession(selectSelected);
  const nodes = useSession(selectNodes);
  const children = useSession(selectChildren);
  // A near-first page's versions left out, counted until the rest arrives ([R294]).
  const leftOut = useSession(selectLeftOut);
  const reveal = useSession(selectReveal);
  const store = useSessionStoreApi();
  const [showSystem, setShowSystem] = useState(false);
  const scroller = useRef<HTMLDivElement | null>(null);
  const list = useRef<HTMLDivElement | null>(null);
  const atBottom = useRef(true);
  // Away from the end (issue 21): a button brings the view back, marked while a reply
  // streams below.
  const [away, setAway] = useState(false);
  const streaming = useSession(selectStreaming);

  // Versions (`< 2/3 >`) from the children index by the engine's rule — the graph's own
  // siblingIndex/siblingCount — so the transcript never waits for a whole-ledger graph build
  // (with the graph pane closed, none happens at all).
  const ledger = useMemo(() => ({ nodes, children, leftOut }), [nodes, children, leftOut]);
  const versionsOf = useCallback((node: LedgerNode) => versionCount(ledger, node), [ledger]);
  // Every summary the model reads (one per segment under `segmented`), with the turns it
  // stands in for — through the summaries a nested one names.
  const standIns = useMemo(() => standInsOf(rendering, nodes), [rendering, nodes]);
  const covered = useMemo(() => new Set(standIns.flatMap((s) => s.turns)), [standIns]);

  // Stable callbacks: a memoised row re-renders only when its own props change ([R124]).
  const onRetry = useCallback(
    (id: NodeId, model?: string) => void actions.retry(id, model),
    [actions],
  );
  const onEdit = useCallback(
    (id: NodeId, content: string) => void actions.edit(id, content),
    [actions],
  );
  const onDeleteBranch = useCallback((id: NodeId) => void actions.deleteBranch(id), [actions]);
  const onCheckout = useCallback((id: NodeId) => void actions.checkout(id), [actions]);
  // "What did it read?": the graph marks and frames what the reply read; again unmarks it.
  const onSelect = useCallback(
    (id: NodeId) => {
      const s = store.getState();
      if (s.selectedId === id) {
        s.select(null);
        return;
      }
      s.select(id);
      s.requestView({ kind: "reads", id });
    },
    [store],
  );
  // Switching `‹ ›` keeps the switched message where it is on screen, here and in the
  // graph (issue 20): the rows above it do not change, so neither does its top — the view
  // only must not jump to the bottom as it does for a new turn.
  const keepPlace = useRef<NodeId | null>(null);
  /** The least height of the list while a switched version keeps its place (px). */
  const [floor, setFloor] = useState(0);
  /**
   * Where the switched message stood (its top within the scroller, px) while rows above it
   * may still change height — a summary card that the other branch does not read, rows
   * measured late. Held for a moment after the switch, then the user's own again.
   */
  const anchor = useRef<{ id: NodeId; top: number; until: number } | null>(null);
  const holdAnchor = useCallback(() => {
    const el = scroller.current;
    const held = anchor.current;
    if (!el || !held) return;
    if (performance.now() > held.until) {
      anchor.current = null;
      return;
    }
    const row = el.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(held.id)}"]`);
    if (!row) return;
    const drift = row.getBoundingClientRect().top - el.getBoundingClientRect().top - held.top;
    if (Math.abs(drift) < 1) return;
    const wanted = el.scrollTop + drift;
    setFloor((f) => Math.max(f, wanted + el.clientHeight));
    el.scrollTop = wanted;
  }, []);
  const onSibling = useCallback(
    (node: LedgerNode, delta: -1 | 1) =>
      withWholeLedger(store, "Switching to the other version", (s) => {
        const target = versionStep(s, node, delta);
        if (!target) return;
        const tip = versionTip(s, target);
        keepPlace.current = target.id;
        // The other version's branch may be shorter: keep room below so the view can stay.
        const el = scroller.current;
        if (el) {
          setFloor(el.scrollTop + el.clientHeight);
          const row = el.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(node.id)}"]`);
          if (row) {
            const top = row.getBoundingClientRect().top - el.getBoundingClientRect().top;
            anchor.current = { id: target.id, top, until: performance.now() + 1500 };
          }
        }
        s.requestView({ kind: "version", id: target.id, from: node.id, head: tip });
        void actions.checkout(tip);
      }),
    [store, actions],
  );
  // Compare this version's branch (HEAD's) with its neighbour's, side by side.
  const compare = useCompare();
  // A replay opens the replies side by side as soon as it exists; they fill in live.
  const onReplay = useCallback(
    (node: LedgerNode, req: ReplayRequest) => {
      void actions.replay(node.id, req).then((id) => {
        const parent = node.predecessorId;
        if (id === null || parent === null) return;
        // Every reply to the message, which a near-first page holds once the rest is here.
        withWholeLedger(store, "Opening the replies side by side", () =>
          compare.openReplies(parent, node.id),
        );
      });
    },
    [actions, compare, store],
  );
  const onSideBySide = useCallback(
    (node: LedgerNode) => {
      const parent = node.predecessorId;
      if (parent === null) return;
      withWholeLedger(store, "Opening the replies side by side", () =>
        compare.openReplies(parent, node.id),
      );
    },
    [compare, store],
  );
  const onCompare = useCallback(
    (node: LedgerNode) =>
      withWholeLedger(store, "Opening the versions side by side", (s) => {
        const head = s.session.headId;
        const other = head === null ? undefined : versionBeside(s, node);
        if (other && head !== null) compare.open(head, versionTip(s, other));
      }),
    [store, compare],
  );

  const root = spine[0];
  const turns = useMemo(() => spine.slice(1), [spine]);
  // The card of each summary stands above the first turn it covers.
  const cardAt = useMemo(
    () => new Map(standIns.flatMap((s) => (s.turns[0] ? [[s.turns[0], s] as const] : []))),
    [standIns],
  );
  // Deleting HEAD's branch needs somewhere to fall back to: a fork somewhere above it.
  const forkedAbove = useMemo(() => turns.some((n) => versionsOf(n)[1] > 1), [turns, versionsOf]);
  const last = turns.at(-1);
  const lastIsTip = useMemo(
    () => (last ? versionCountBelow(ledger, last) === 0 : false),
    [last, ledger],
  );

  // Row 0 is the system prompt's toggle; row i is turn i - 1.
  const count = turns.length + 1;
  // Stable functions: the virtualiser recomputes every row's position when they change.
  const getItemKey = useCallback(
    (i: number) => (i === 0 ? "system" : (turns[i - 1]?.id ?? i)),
    [turns],
  );
  // The React Compiler is not enabled here; the virtualiser's functions are read fresh on
  // every render, which is what its incompatible-library warning guards against.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize,
    overscan: count <= ALL_ROWS ? count : OVERSCAN,
    getItemKey,
    initialRect: INITIAL_RECT,
    // Open at the bottom (the range clamps it to the end of the list).
    initialOffset: Number.MAX_SAFE_INTEGER,
  });

  // Before the virtualiser first reads the scroll position (its layout effect runs after
  // this ref is attached), put the view at the bottom, where the server-rendered tail is.
  const attach = useCallback((el: HTMLDivElement | null) => {
    if (el && scroller.current !== el) el.scrollTop = el.scrollHeight;
    scroller.current = el;
  }, []);

  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // A new turn (this tab's or another's) brings the view to the bottom — but not a version
  // switch, whose message stays where it was.
  useLayoutEffect(() => {
    const kept = keepPlace.current;
    if (kept !== null && turns.some((n) => n.id === kept)) {
      keepPlace.current = null;
      atBottom.current = false;
      holdAnchor();
      return;
    }
    atBottom.current = true;
    setFloor(0);
    toBottom();
    // Only a new last turn decides; `turns` is read, not watched.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [last?.id, toBottom]);

  // While at the bottom, stay there as the streaming row grows or rows get measured.
  useEffect(() => {
    const inner = list.current;
    if (!inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (anchor.current) holdAnchor();
      else if (atBottom.current) toBottom();
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, [toBottom, holdAnchor]);

  // The user's own scrolling ends the hold on a switched message's place.
  const release = useCallback(() => {
    anchor.current = null;
  }, []);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK;
    setAway(!atBottom.current);
    // Scrolled back within the list itself: the room kept below is no longer needed.
    if (el.scrollTop + el.clientHeight <= virtualizer.getTotalSize()) setFloor(0);
  }, [virtualizer]);

  // Jump to a node (a search result, a node selected in the graph) through the virtualiser:
  // its row may not be mounted.
  const scrollTo = useCallback(
    (id: NodeId, align: "center" | "auto") => {
      const i = turns.findIndex((n) => n.id === id);
      if (i < 0) return;
      if (i < turns.length - 1) atBottom.current = false;
      virtualizer.scrollToIndex(i + 1, { align });
    },
    [turns, virtualizer],
  );
  // Each request once (by its nonce): a later turn must not jump back to it.
  const revealed = useRef(0);
  useEffect(() => {
    if (!reveal || reveal.nonce === revealed.current) return;
    revealed.current = reveal.nonce;
    scrollTo(reveal.id, "center");
  }, [reveal, scrollTo]);
  // Only a new selection scrolls, not a new turn while something stays selected.
  const latestScrollTo = useRef(scrollTo);
  useLayoutEffect(() => {
    latestScrollTo.current = scrollTo;
  }, [scrollTo]);
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if (s.selectedId && s.selectedId !== prev.selectedId) {
          latestScrollTo.current(s.selectedId, "auto");
        }
      }),
    [store],
  );

  const jumpToEnd = useCallback(() => {
    atBottom.current = true;
    setAway(false);
    setFloor(0);
    toBottom();
  }, [toBottom]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className={styles.frame}>
      <div
        ref={attach}
        className={styles.transcript}
        aria-label="Transcript"
        onScroll={onScroll}
        onWheel={release}
        onTouchStart={release}
        onKeyDown={release}
      >
        <div
          className={styles.sizer}
          style={{ height: Math.max(virtualizer.getTotalSize(), floor) }}
        >
          <div
            ref={list}
            className={styles.window}
            style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}
          >
            {items.map((item) => {
              const node = item.index === 0 ? undefined : turns[item.index - 1];
              const [siblingIndex, siblingCount] = node ? versionsOf(node) : [0, 1];
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className={styles.row}
                >
                  {item.index === 0 ? (
                    root && (
                      <div className={styles.systemPrompt}>
                        <button className="link-btn" onClick={() => setShowSystem((v) => !v)}>
                          {showSystem ? "Hide" : "Show"} system prompt
                        </button>
                        {showSystem && <pre>{root.content}</pre>}
                      </div>
                    )
                  ) : node ? (
                    <>
                      {cardAt.has(node.id) && <SummaryCard standIn={cardAt.get(node.id)} />}
                      <TurnRow
                        id={node.id}
                        siblingIndex={siblingIndex}
                        siblingCount={siblingCount}
                        covered={covered.has(node.id)}
                        busy={busy}
                        selected={selectedId === node.id}
                        deletable={
                          node.id === last?.id &&
                          forkedAbove &&
                          lastIsTip &&
                          node.status !== "streaming"
                        }
                        onRetry={onRetry}
                        onEdit={onEdit}
                        onSibling={onSibling}
                        onCompare={onCompare}
                        onSelect={onSelect}
                        onDeleteBranch={onDeleteBranch}
                        onCheckout={onCheckout}
                        onReplay={onReplay}
                        onSideBySide={onSideBySide}
                      />
                    </>
                  ) : null}
                </div>
              );
            })}
          </div>
        </div>
        {turns.length === 0 && (
          <p className={styles.empty}>Send a message to start the conversation.</p>
        )}
      </div>
      {away && (
        <button
          type="button"
          className={cx(styles.toEnd, streaming && styles.toEndLive)}
          onClick={jumpToEnd}
          aria-label={streaming ? "Scroll to bottom (a reply is streaming)" : "Scroll to bottom"}
          title={streaming ? "A reply is streaming below" : "Scroll to the latest message"}
        >
          <span aria-hidden="true">↓</span>
          {streaming && <span className={styles.liveDot} aria-hidden="true" />}
        </button>
      )}
    </div>
  );
}

/** A summary the model reads and the turns of HEAD's branch it stands in for. */
interface StandIn {
  readonly summary: LedgerNode;
  readonly turns: readonly NodeId[];
}

function standInsOf(
  rendering: RenderedContext | null,
  nodes: { get(id: string): LedgerNode | undefined },
): StandIn[] {
  const get = (id: NodeId) => nodes.get(id);
  return (rendering?.messages ?? []).flatMap((m) => {
    const summary = m.kind === "summary" ? nodes.get(m.id) : undefined;
    return summary ? [{ summary, turns: turnsOf(summary, get) ?? [] }] : [];
  });
}

/** Where a summary stands in: the card above the turns it covers, which stay dimmed below. */
function SummaryCard({ standIn }: { standIn: StandIn | undefined }) {
  if (!standIn) return null;
  const { summary, turns } = standIn;
  return (
    <details className={cx("summary-card", styles.summary)} open={false}>
      <summary>
        <strong>The model reads a summary instead of the {turns.length} turns below.</strong>
        <span className={styles.summaryFirst}>
          {summary.content.split("\n").find((l) => l.trim())}
        </span>
      </summary>
      <pre className={styles.summaryText}>{summary.content}</pre>
    </details>
  );
}

type TurnRowProps = Omit<MessageViewProps, "node"> & { readonly id: NodeId };

/**
 * One turn, reading its node by id: a streamed token re-renders this row only (the
 * transcript above it reads structural state, which a token does not change). A skeleton
 * (the page's first load of a long session) asks for its whole text as it scrolls into view.
 */
const TurnRow = memo(function TurnRow({ id, ...props }: TurnRowProps) {
  const node = useNode(id);
  const store = useSessionStoreApi();
  const skeleton = node?.partial === "skeleton";
  useEffect(() => {
    if (skeleton) void store.getState().ensureFull([id]);
  }, [skeleton, id, store]);
  return node ? <MessageView node={node} {...props} /> : null;
});
