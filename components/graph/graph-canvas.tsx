"use client";

import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  Panel,
  ReactFlow,
  useReactFlow,
  useStore,
  type NodeMouseHandler,
  type ReactFlowState,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useResolvedTheme } from "@/components/theme/use-resolved-theme";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import type { GraphRow } from "@/lib/engine/build-graph";
import { useSession } from "@/components/session/session-context";
import { CapsuleCard, FrameCard } from "./capsule-card";
import { flowNodeOf, type GraphEdge, type GraphNode } from "./flow-node-types";
import type { FlowEdge, FlowNode, NavEntry } from "./flow-types";
import { GraphEdgeLine } from "./graph-edge";
import s from "./graph.module.css";
import { GraphToolbar } from "./graph-toolbar";
import { NodeDetail } from "./node-detail";
import { LEGIBLE_ZOOM, MIN_ZOOM, READING_ZOOM, fitViewport, openingViewport } from "./opening-view";
import { SideCard } from "./side-card";
import { TurnCard } from "./turn-card";
import { useGraphKeys } from "./use-graph-keys";
import { useGraphModel } from "./use-graph-model";
import { allElements, coverKey, coverRect, visibleElements } from "./visible-cards";

// Module-level: React Flow warns (and remounts every card) when these change identity.
const NODE_TYPES = { turn: TurnCard, capsule: CapsuleCard, frame: FrameCard, side: SideCard };
const EDGE_TYPES = { spindle: GraphEdgeLine };
/** Up to this many cards, following HEAD refits the whole graph instead of panning. */
const FOLLOW_FIT_LIMIT = 30;

/** A card's identity and place, as a key. */
const placeOf = (card: FlowNode) => `${card.id}@${card.position.x},${card.position.y}`;

const centreOf = (card: FlowNode) => ({
  x: card.position.x + (card.width ?? 0) / 2,
  y: card.position.y + (card.height ?? 0) / 2,
});

const EMPTY_ROWS: ReadonlyMap<NodeId, GraphRow> = new Map();
const EMPTY_CARDS: ReadonlyMap<string, FlowNode> = new Map();
const EMPTY_EDGES: ReadonlyMap<string, FlowEdge> = new Map();
const EMPTY_NAV: ReadonlyMap<string, NavEntry> = new Map();

const selectCover = (st: ReactFlowState) => coverKey(st.transform, st.width, st.height);

/** The graph of the store's session; reads the store, keeps only React Flow's viewport. */
export function GraphCanvas({ onCheckout }: { readonly onCheckout: (id: NodeId) => void }) {
  const expandedIds = useSession((st) => st.expanded);
  const showRelics = useSession((st) => st.showRelics);
  const selectedId = useSession((st) => st.selectedId);
  const select = useSession((st) => st.select);
  const toggleCapsule = useSession((st) => st.toggleCapsule);
  const flow = useReactFlow<GraphNode, GraphEdge>();
  const theme = useResolvedTheme();
  const rootRef = useRef<HTMLDivElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);

  const expanded = useMemo(() => new Set(Object.keys(expandedIds).map(asNodeId)), [expandedIds]);
  // The selected node as the store holds it: its text, metadata and reads (the graph's rows
  // keep only what a card shows). What it read glows (graph.md, provenance).
  const held = useSession((st) => (selectedId === null ? undefined : st.nodes[selectedId]));
  const heldReads = held?.reads;
  const reads = useMemo(
    () => (heldReads !== undefined && heldReads.length > 0 ? heldReads : null),
    [heldReads],
  );
  // Built in place for a small session; in the worker, from what changed, for a large one.
  const { model, big } = useGraphModel(expanded, showRelics, reads);
  const rows = model?.rows ?? EMPTY_ROWS;
  const cards = model?.cards ?? EMPTY_CARDS;
  const row = selectedId === null ? undefined : rows.get(selectedId);
  const selected = useMemo(
    () =>
      row !== undefined && held !== undefined
        ? { ...row, content: held.content, metadata: held.metadata, reads: held.reads }
        : row,
    [row, held],
  );

  // What React Flow is given: every card of a small graph; of a large one, the cards around
  // the viewport, recomputed when the view crosses a tile edge ([R138]). Cards keep their
  // React Flow node across changes, so React Flow re-adopts only the ones that changed.
  const cover = useStore(selectCover);
  const lines = model?.edges ?? EMPTY_EDGES;
  const shown = useMemo(
    () => (big ? visibleElements(cards, lines, coverRect(cover)) : allElements(cards, lines)),
    [cards, lines, big, cover],
  );
  const nodes = useMemo(() => shown.nodes.map(flowNodeOf), [shown]);
  const edges: GraphEdge[] = shown.edges;

  const activeId = model?.activeSummaryId ?? null;
  const summary = activeId === null ? undefined : rows.get(activeId);
  const capsuleId =
    summary?.covers_ids !== undefined && summary.covers_ids.length > 0 ? summary.id : null;
  const capsuleExpanded = capsuleId !== null && expanded.has(capsuleId);
  const covered = useMemo(() => new Set(summary?.covers_ids ?? []), [summary]);
  const cardOf = useCallback(
    (id: NodeId): string | null =>
      cards.has(id) ? id : capsuleId !== null && covered.has(id) ? capsuleId : null,
    [cards, capsuleId, covered],
  );

  const paneSize = useCallback(() => {
    const box = paneRef.current?.getBoundingClientRect();
    return { width: box?.width ?? 0, height: box?.height ?? 0 };
  }, []);
  // The whole graph, fitted from the layout (React Flow knows only the cards it was given).
  const fit = useCallback(() => {
    if (cards.size === 0) return;
    void flow.setViewport(fitViewport([...cards.values()], paneSize()), { duration: 200 });
  }, [cards, flow, paneSize]);
  const reveal = useCallback(
    (cardId: string) => {
      const card = cards.get(cardId);
      if (card === undefined) return;
      const { x, y } = centreOf(card);
      void flow.setCenter(x, y, { zoom: flow.getZoom(), duration: 150 });
    },
    [cards, flow],
  );
  // First load: the whole graph when it fits legibly, else HEAD at reading size — set in one
  // step once React Flow is ready and the first layout has arrived (from the worker, it may
  // come later than React Flow's init).
  const headId = model?.headId ?? null;
  const headCard = headId === null ? null : cardOf(headId);
  const [ready, setReady] = useState(false);
  const onInit = useCallback(() => setReady(true), []);
  const initialised = useRef(false);
  // Where HEAD's card was when the view last followed it: a new model that leaves it in
  // place (a selection's marks, an expanded capsule elsewhere) does not pull the view back.
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (initialised.current || !ready || paneRef.current === null || cards.size === 0) return;
    initialised.current = true;
    const head = headCard === null ? undefined : cards.get(headCard);
    if (head !== undefined) followed.current = placeOf(head);
    void flow.setViewport(openingViewport([...cards.values()], paneSize(), head ?? null));
  }, [ready, cards, headCard, flow, paneSize]);

  // Follow HEAD: when a new turn, a checkout or a compaction moves HEAD's card out of view
  // (a folded capsule can shorten the picture under the viewport), bring it back in.
  const headCardNode = headCard === null ? undefined : cards.get(headCard);
  useEffect(() => {
    const root = rootRef.current;
    if (!initialised.current || headCardNode === undefined || root === null) return;
    const place = placeOf(headCardNode);
    if (followed.current === place) return;
    followed.current = place;
    const { x, y } = centreOf(headCardNode);
    const at = flow.flowToScreenPosition({ x, y });
    const box = root.getBoundingClientRect();
    const margin = 40;
    const visible =
      at.x > box.left + margin &&
      at.x < box.right - margin &&
      at.y > box.top + margin &&
      at.y < box.bottom - margin;
    if (visible) return;
    // Refit when the whole graph stays legible (as on first load); else pan to HEAD.
    if (cards.size <= FOLLOW_FIT_LIMIT) {
      const whole = fitViewport([...cards.values()], paneSize());
      if (whole.zoom >= LEGIBLE_ZOOM) {
        void flow.setViewport(whole);
        return;
      }
    }
    void flow.setCenter(x, y, { zoom: Math.max(flow.getZoom(), READING_ZOOM), duration: 200 });
  }, [headCardNode, cards, flow, paneSize]);

  const onKeyDown = useGraphKeys({
    nav: model?.nav ?? EMPTY_NAV,
    rows,
    headId,
    cardOf,
    capsuleId,
    onCheckout,
    onFit: fit,
    reveal,
  });

  const onNodeClick: NodeMouseHandler<GraphNode> = useCallback(
    (_event, node) => {
      rootRef.current?.focus({ preventScroll: true });
      switch (node.type) {
        case "capsule":
          select(node.data.summaryId);
          toggleCapsule(node.data.summaryId);
          return;
        case "frame":
          select(node.data.summaryId);
          return;
        case "turn":
        case "side":
          select(asNodeId(node.id));
          return;
      }
    },
    [select, toggleCapsule],
  );
  const onNodeDoubleClick: NodeMouseHandler<GraphNode> = useCallback(
    (_event, node) => {
      if (node.type === "turn") onCheckout(asNodeId(node.id));
    },
    [onCheckout],
  );
  const onPaneClick = useCallback(() => {
    rootRef.current?.focus({ preventScroll: true });
    select(null);
  }, [select]);

  const relics = model?.relics ?? 0;

  return (
    <div
      ref={rootRef}
      className={s.root}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Conversation graph"
      aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Enter Space F"
    >
      <div className={s.canvas} ref={paneRef}>
        <ReactFlow<GraphNode, GraphEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodeClick={onNodeClick}
          onNodeDoubleClick={onNodeDoubleClick}
          onPaneClick={onPaneClick}
          onInit={onInit}
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
              title="Fit the whole graph"
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
          <Panel position="top-left">
            <GraphToolbar relics={relics} onFit={fit} />
          </Panel>
        </ReactFlow>
        {model === null && <div className={s.empty}>Updating the graph…</div>}
      </div>
      {selected !== undefined && (
        <NodeDetail
          row={selected}
          head={selected.id === headId}
          capsule={selected.id === capsuleId ? { expanded: capsuleExpanded } : null}
          folded={capsuleId !== null && !capsuleExpanded && covered.has(selected.id)}
          onCheckout={onCheckout}
          onToggleCapsule={() => {
            if (capsuleId !== null) toggleCapsule(capsuleId);
          }}
          onClose={() => select(null)}
        />
      )}
    </div>
  );
}
