"use client";

import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  Panel,
  ReactFlow,
  useStore,
  type NodeMouseHandler,
  type ReactFlowState,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useResolvedTheme } from "@/components/theme/use-resolved-theme";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { PageRow } from "./page-row";
import { useSession } from "@/components/session/session-context";
import { useCompare } from "@/components/compare/compare-context";
import { useShowShortcuts } from "@/components/shortcuts/shortcuts-provider";
import { CapsuleCard, FrameCard } from "./capsule-card";
import { flowNodeOf, type GraphEdge, type GraphNode } from "./flow-node-types";
import { linesOf } from "./flow-elements";
import type { FlowNode, Lines } from "./flow-types";
import { GraphEdgeLine } from "./graph-edge";
import { GraphMinimap } from "./graph-minimap";
import s from "./graph.module.css";
import { GraphToolbar } from "./graph-toolbar";
import { NodeDetail } from "./node-detail";
import { inView, isBranchCapsule, MIN_ZOOM, type Box } from "./opening-view";
import p from "./panel.module.css";
import { SideCard } from "./side-card";
import { TurnCard } from "./turn-card";
import { useGraphKeys } from "./use-graph-keys";
import { useGraphModel } from "./use-graph-model";
import { useGraphViewport } from "./use-graph-viewport";
import { allElements, coverKey, coverRect, visibleElements } from "./visible-cards";

// Module-level: React Flow warns (and remounts every card) when these change identity.
const NODE_TYPES = { turn: TurnCard, capsule: CapsuleCard, frame: FrameCard, side: SideCard };
const EDGE_TYPES = { spindle: GraphEdgeLine };

const EMPTY_ROWS: ReadonlyMap<NodeId, PageRow> = new Map();
const EMPTY_CARDS: ReadonlyMap<string, FlowNode> = new Map();
const NO_LINES: Lines = linesOf([]);
const noMoves = () => Promise.resolve(null);

const selectCover = (st: ReactFlowState) => coverKey(st.transform, st.width, st.height);
/** A pane wide enough for the map beside the cards (false until it is measured). */
const selectRoomy = (st: ReactFlowState) => st.width >= MAP_PANE_WIDTH;
/** The narrowest pane the map shows in by default (a phone's drawer is about 360 px). */
const MAP_PANE_WIDTH = 560;

/** A selected node's row until the model's answer comes: where it hangs is not claimed. */
function provisionalRow(node: LedgerNode): PageRow {
  return {
    id: node.id,
    kind: node.kind,
    onHeadSpine: false,
    foldedIn: false,
    rawFork: false,
    childCount: 0,
    siblingIndex: 0,
    siblingCount: 1,
  };
}

/** "Back to HEAD", shown while HEAD's card is out of view; re-renders only when that flips. */
function BackToHead({
  head,
  onClick,
}: {
  readonly head: Box | null;
  readonly onClick: () => void;
}) {
  const away = useStore(
    useCallback(
      (st: ReactFlowState) =>
        head !== null &&
        st.width > 0 &&
        !inView(
          head,
          { x: st.transform[0], y: st.transform[1], zoom: st.transform[2] },
          { width: st.width, height: st.height },
        ),
      [head],
    ),
  );
  if (!away) return null;
  return (
    <button
      type="button"
      className={p.backToHead}
      onClick={onClick}
      title="Show HEAD — where you are — at reading size; the view follows it again (H)"
    >
      Back to HEAD
    </button>
  );
}

/** The graph of the store's session; reads the store, keeps only React Flow's viewport. */
export function GraphCanvas({ onCheckout }: { readonly onCheckout: (id: NodeId) => void }) {
  const expandedIds = useSession((st) => st.expanded);
  const showRelics = useSession((st) => st.showRelics);
  const selectedId = useSession((st) => st.selectedId);
  const select = useSession((st) => st.select);
  const toggleCapsule = useSession((st) => st.toggleCapsule);
  const theme = useResolvedTheme();
  const compare = useCompare();
  const showShortcuts = useShowShortcuts();
  const rootRef = useRef<HTMLDivElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);
  // The map shows by default in a pane wide enough for it: in a phone's narrow drawer it
  // covered the cards one came to see (HEAD among them, once the detail panel took the
  // lower half). "Map" and `m` show or hide it whatever the size.
  const roomy = useStore(selectRoomy);
  const [minimapChoice, setMinimapChoice] = useState<boolean | null>(null);
  const minimap = minimapChoice ?? roomy;
  const toggleMinimap = () => setMinimapChoice(!minimap);
  // Picking the second node of a comparison: the first one, until a card is clicked.
  const [picking, setPicking] = useState<NodeId | null>(null);

  const expanded = useMemo(() => new Set(Object.keys(expandedIds).map(asNodeId)), [expandedIds]);
  // The selected node as the store holds it: its text, metadata and reads (the graph's rows
  // keep only what a card shows). What it read glows (graph.md, provenance).
  const held = useSession((st) => (selectedId === null ? undefined : st.nodes.get(selectedId)));
  const heldReads = held?.reads;
  const reads = useMemo(
    () => (heldReads !== undefined && heldReads.length > 0 ? heldReads : null),
    [heldReads],
  );
  // Built in place for a small session; in the worker, from what changed, for a large one.
  const { model, big, pending } = useGraphModel(expanded, showRelics, reads);
  // Busy while a change is laid out or a near-first page's rest is on its way ([R294]).
  const complete = useSession((st) => st.complete);
  const summaries = model?.summaries ?? EMPTY_ROWS;
  const cards = model?.cards ?? EMPTY_CARDS;
  // The selected node's graph row, asked of the model (a large graph's worker holds the rows)
  // whenever the selection or the model changes. Until it comes, the detail shows at once
  // from what the page holds — the summary's row, or the node with a row that claims
  // nothing (no fork before the summary, no replaced summary) — so the panel never leaves
  // and comes back, and the pane below it never jumps; a node the graph no longer has
  // (answered null) shows no detail.
  const [asked, setAsked] = useState<{
    readonly id: NodeId;
    readonly row: PageRow | null;
  } | null>(null);
  useEffect(() => {
    if (selectedId === null || model === null) return;
    let live = true;
    void model.rowOf(selectedId).then((found) => {
      if (live) setAsked({ id: selectedId, row: found });
    });
    return () => {
      live = false;
    };
  }, [model, selectedId]);
  const answered = asked !== null && asked.id === selectedId ? asked.row : undefined;
  const row =
    answered !== undefined
      ? answered
      : selectedId === null
        ? null
        : (summaries.get(selectedId) ?? (held === undefined ? null : provisionalRow(held)));
  // Where the node hangs in the graph (its row), with the node as the store holds it: the
  // store's copy wins (a row built in place may hold an older copy's label).
  const selected = useMemo(
    () => (row !== null && held !== undefined ? { ...row, ...held } : undefined),
    [row, held],
  );

  // What React Flow is given: every card of a small graph; of a large one, the cards around
  // the viewport, recomputed when the view crosses a tile edge ([R138]). Cards keep their
  // React Flow node across changes, so React Flow re-adopts only the ones that changed.
  const cover = useStore(selectCover);
  const lines = model?.lines ?? NO_LINES;
  const shown = useMemo(
    () => (big ? visibleElements(cards, lines, coverRect(cover)) : allElements(cards, lines)),
    [cards, lines, big, cover],
  );
  const nodes = useMemo(() => shown.nodes.map(flowNodeOf), [shown]);
  const edges: GraphEdge[] = shown.edges;

  // Each drawn stand-in and what it stands for (one capsule per active summary, [R249]): a
  // node folded inside a capsule maps to that capsule; one drawn inside an unfolded frame
  // (a turn, or a nested summary's inner capsule) to the frame holding it.
  const standIns = useMemo(() => {
    const foldedInto = new Map<NodeId, string>();
    const framedIn = new Map<NodeId, NodeId>();
    const onBranch: FlowNode[] = [];
    for (const card of cards.values()) {
      if (isBranchCapsule(card)) onBranch.push(card);
      if (card.type === "frame") {
        for (const id of summaries.get(card.data.summaryId)?.covers_ids ?? []) {
          framedIn.set(id, card.data.summaryId);
        }
      }
      if (card.type !== "capsule") continue;
      const stack = [...(summaries.get(card.data.summaryId)?.covers_ids ?? [])];
      for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
        if (foldedInto.has(id)) continue;
        foldedInto.set(id, card.id);
        // A summary nested inside folds what it covered too.
        stack.push(...(summaries.get(id)?.covers_ids ?? []));
      }
    }
    return { foldedInto, framedIn, onBranch };
  }, [cards, summaries]);
  const cardOf = useCallback(
    (id: NodeId): string | null => (cards.has(id) ? id : (standIns.foldedInto.get(id) ?? null)),
    [cards, standIns],
  );
  /** The summary whose capsule Space folds or unfolds from a selected node, if any. */
  const capsuleFor = useCallback(
    (id: NodeId): NodeId | null => {
      const card = cards.get(id);
      if (card?.type === "capsule" || card?.type === "frame") return card.data.summaryId;
      const folding = standIns.foldedInto.get(id);
      return folding !== undefined ? asNodeId(folding) : (standIns.framedIn.get(id) ?? null);
    },
    [cards, standIns],
  );
  const selectedCard = selectedId === null ? undefined : cards.get(selectedId);
  const selectedStandIn =
    selectedCard?.type === "capsule" || selectedCard?.type === "frame" ? selectedCard : null;

  const headId = model?.headId ?? null;
  const headCard = headId === null ? null : cardOf(headId);
  const view = useGraphViewport({
    cards,
    cardOf,
    headId,
    branchCapsules: standIns.onBranch,
    expanded,
    selectedId,
    paneRef,
  });
  const { fit, reveal, backToHead } = view;

  const startCompare = useCallback((id: NodeId) => setPicking(id), []);
  const finishCompare = useCallback(
    (a: NodeId, b: NodeId) => {
      setPicking(null);
      compare.open(a, b);
    },
    [compare],
  );
  useEffect(() => {
    if (picking === null) return;
    const cancel = (e: KeyboardEvent) => {
      if (e.key === "Escape") setPicking(null);
    };
    window.addEventListener("keydown", cancel);
    return () => window.removeEventListener("keydown", cancel);
  }, [picking]);

  const onKeyDown = useGraphKeys({
    navigate: model?.navigate ?? noMoves,
    first: cards.keys().next().value ?? null,
    headId,
    cardOf,
    capsuleFor,
    onCheckout: (id) => {
      view.attach();
      onCheckout(id);
    },
    onFit: fit,
    onBackToHead: backToHead,
    onToggleMinimap: toggleMinimap,
    onCompare: startCompare,
    reveal,
  });

  const onNodeClick: NodeMouseHandler<GraphNode> = useCallback(
    (event, node) => {
      rootRef.current?.focus({ preventScroll: true });
      const id =
        node.type === "capsule" || node.type === "frame" ? node.data.summaryId : asNodeId(node.id);
      // The second node of a comparison: picked after "Compare…", or Shift+click.
      const first = picking ?? (event.shiftKey ? selectedId : null);
      if (first !== null && node.type === "turn") {
        finishCompare(first, id);
        return;
      }
      select(id);
      if (node.type === "capsule") toggleCapsule(node.data.summaryId);
    },
    [select, toggleCapsule, picking, selectedId, finishCompare],
  );
  const onNodeDoubleClick: NodeMouseHandler<GraphNode> = useCallback(
    (_event, node) => {
      if (node.type !== "turn") return;
      // The card double-clicked is in view: the view follows HEAD from here.
      view.attach();
      onCheckout(asNodeId(node.id));
    },
    [onCheckout, view],
  );
  const onPaneClick = useCallback(() => {
    rootRef.current?.focus({ preventScroll: true });
    select(null);
  }, [select]);

  const relics = model?.relics ?? 0;
  const headBox = headCard === null ? null : (cards.get(headCard) ?? null);
  const pickingNode = useSession((st) => (picking === null ? undefined : st.nodes.get(picking)));

  return (
    <div
      ref={rootRef}
      className={s.root}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Conversation graph"
      aria-busy={pending || !complete}
      aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Enter Space H F M C ?"
    >
      {/* A bar above the canvas, not over it: no card is ever half under it. */}
      <GraphToolbar
        relics={relics}
        onFit={fit}
        minimap={minimap}
        onToggleMinimap={toggleMinimap}
        onShowKeys={showShortcuts}
      />
      <div className={s.canvas} ref={paneRef}>
        <ReactFlow<GraphNode, GraphEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodeClick={onNodeClick}
          onNodeDoubleClick={onNodeDoubleClick}
          onPaneClick={onPaneClick}
          onInit={view.onInit}
          onMoveStart={view.onMoveStart}
          onlyRenderVisibleElements
          minZoom={MIN_ZOOM}
          maxZoom={1.75}
          colorMode={theme ?? "light"}
          // Read-only picture: the store owns selection, nothing is dragged or connected,
          // and the graph's own keys (Space, arrows) must not be taken by React Flow.
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          disableKeyboardA11y
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          panActivationKeyCode={null}
          zoomOnDoubleClick={false}
        >
          <Background
            variant={BackgroundVariant.Dots}
            gap={24}
            size={1}
            color="var(--border-strong)"
          />
          {/* Fit from the layout: React Flow's own fit would fit only the cards it was given. */}
          <Controls showInteractive={false} showFitView={false} position="bottom-left">
            <ControlButton
              className="react-flow__controls-fitview"
              onClick={fit}
              title="Fit the whole graph (F)"
              aria-label="Fit the whole graph"
            >
              <svg viewBox="0 0 32 32" aria-hidden="true" fill="none">
                <path
                  d="M3 12V3h9M20 3h9v9M29 20v9h-9M12 29H3v-9"
                  stroke="currentColor"
                  strokeWidth="4"
                />
              </svg>
            </ControlButton>
          </Controls>
          {/* "Back to HEAD" beside the map, not above it over the cards; each is a cover of
              its own (use-graph-viewport.ts), so the corner above the button stays free. */}
          <Panel position="bottom-right" className={p.viewControls}>
            <BackToHead head={headBox} onClick={backToHead} />
            {minimap && (
              <GraphMinimap cards={cards} headCardId={headCard} theme={theme} onPan={view.detach} />
            )}
          </Panel>
          {picking !== null && (
            <Panel position="top-center">
              <div className={p.pickBanner} role="status">
                Pick a message to compare with “{pickingNode?.content.slice(0, 40) ?? "…"}”
                <button type="button" className={p.button} onClick={() => setPicking(null)}>
                  Cancel
                </button>
              </div>
            </Panel>
          )}
        </ReactFlow>
        {model === null && <div className={s.empty}>Updating the graph…</div>}
      </div>
      {selected !== undefined && (
        <NodeDetail
          row={selected}
          head={selected.id === headId}
          capsule={
            selectedStandIn === null
              ? null
              : {
                  expanded: selectedStandIn.type === "frame",
                  turns: selectedStandIn.data.turns,
                  summaries: selectedStandIn.data.summaries,
                }
          }
          folded={standIns.foldedInto.has(selected.id)}
          onCheckout={(id) => {
            view.attach();
            onCheckout(id);
          }}
          onToggleCapsule={() => {
            if (selectedStandIn !== null) toggleCapsule(selectedStandIn.data.summaryId);
          }}
          onCompare={startCompare}
          onReveal={(id) => {
            const card = cardOf(id);
            if (card !== null) reveal(card);
          }}
          onClose={() => select(null)}
        />
      )}
    </div>
  );
}
