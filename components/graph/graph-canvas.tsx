"use client";

import {
  Background,
  BackgroundVariant,
  Controls,
  Panel,
  ReactFlow,
  useReactFlow,
  type NodeMouseHandler,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useResolvedTheme } from "@/components/theme/use-resolved-theme";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import { useGraph, useSession } from "@/components/session/session-context";
import { CapsuleCard, FrameCard } from "./capsule-card";
import { toFlow, type GraphEdge, type GraphNode } from "./flow-node-types";
import type { GraphLayout } from "./flow-types";
import { GraphEdgeLine } from "./graph-edge";
import s from "./graph.module.css";
import { GraphToolbar } from "./graph-toolbar";
import { NodeDetail } from "./node-detail";
import {
  FIT_MAX_ZOOM,
  FIT_PADDING,
  LEGIBLE_ZOOM,
  MIN_ZOOM,
  READING_ZOOM,
  openingViewport,
} from "./opening-view";
import { SideCard } from "./side-card";
import { TurnCard } from "./turn-card";
import { useGraphKeys } from "./use-graph-keys";
import { useGraphLayout } from "./use-graph-layout";

// Module-level: React Flow warns (and remounts every card) when these change identity.
const NODE_TYPES = { turn: TurnCard, capsule: CapsuleCard, frame: FrameCard, side: SideCard };
const EDGE_TYPES = { spindle: GraphEdgeLine };
// The top padding keeps the first card clear of the toolbar overlay.
const FIT = {
  padding: {
    top: `${FIT_PADDING.top}px`,
    x: `${FIT_PADDING.x}px`,
    bottom: `${FIT_PADDING.bottom}px`,
  },
  maxZoom: FIT_MAX_ZOOM,
  duration: 200,
} as const;
/** Up to this many cards, following HEAD refits the whole graph instead of panning. */
const FOLLOW_FIT_LIMIT = 30;
const EMPTY: GraphLayout = { nodes: [], edges: [], nav: new Map() };

const centreOf = (card: GraphNode) => ({
  x: card.position.x + (card.width ?? 0) / 2,
  y: card.position.y + (card.height ?? 0) / 2,
});

/** The graph of the store's session; reads the store, keeps only React Flow's viewport. */
export function GraphCanvas({ onCheckout }: { readonly onCheckout: (id: NodeId) => void }) {
  const graph = useGraph();
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
  const rows = useMemo(() => new Map((graph?.nodes ?? []).map((r) => [r.id, r])), [graph]);
  // The graph keeps a row's label when its whole text or reads arrive on demand (the cards
  // show the same): the selected row's text, metadata and reads come from the store.
  const held = useSession((st) => (selectedId === null ? undefined : st.nodes[selectedId]));
  const row = selectedId === null ? undefined : rows.get(selectedId);
  const selected = useMemo(
    () =>
      row !== undefined && held !== undefined && held !== row
        ? { ...row, content: held.content, metadata: held.metadata, reads: held.reads }
        : row,
    [row, held],
  );
  // The selected call's provenance: what entered its prompt glows (graph.md).
  const reads = selected?.reads;
  const marks = useMemo(
    () =>
      graph !== null && reads !== undefined && reads.length > 0
        ? provenanceMarks(reads, graph)
        : null,
    [graph, reads],
  );
  // Off the main thread for a large session; the previous layout stays until it arrives.
  const laidOut = useGraphLayout(graph, expanded, showRelics, marks);
  const layout = laidOut ?? EMPTY;
  const { nodes, edges } = useMemo(() => toFlow(layout), [layout]);
  const cards = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);

  const activeId = graph?.activeSummaryId ?? null;
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

  const fit = useCallback(() => void flow.fitView(FIT), [flow]);
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
  const headId = graph?.headId ?? null;
  const headCard = headId === null ? null : cardOf(headId);
  const [ready, setReady] = useState(false);
  const onInit = useCallback(() => setReady(true), []);
  const initialised = useRef(false);
  useEffect(() => {
    const pane = paneRef.current;
    if (initialised.current || !ready || pane === null || layout.nodes.length === 0) return;
    initialised.current = true;
    const box = pane.getBoundingClientRect();
    const head = headCard === null ? undefined : layout.nodes.find((n) => n.id === headCard);
    const pane2d = { width: box.width, height: box.height };
    void flow.setViewport(openingViewport(layout.nodes, pane2d, head ?? null));
  }, [ready, layout, headCard, flow]);

  // Follow HEAD: when a new turn, a checkout or a compaction moves HEAD's card out of view
  // (a folded capsule can shorten the picture under the viewport), bring it back in.
  const headCardNode = headCard === null ? undefined : cards.get(headCard);
  useEffect(() => {
    const root = rootRef.current;
    if (!initialised.current || headCardNode === undefined || root === null) return;
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
    void (async () => {
      if (nodes.length <= FOLLOW_FIT_LIMIT) {
        await flow.fitView({ ...FIT, duration: 0 });
        if (flow.getZoom() >= LEGIBLE_ZOOM) return;
      }
      await flow.setCenter(x, y, {
        zoom: Math.max(flow.getZoom(), READING_ZOOM),
        duration: 200,
      });
    })();
  }, [headCardNode, flow, nodes.length]);

  const onKeyDown = useGraphKeys({
    nav: layout.nav,
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

  // Memoised: a render for a selection or a toggle must not walk every row.
  const relics = useMemo(
    () => graph?.nodes.filter((r) => r.superseded_summary === true).length ?? 0,
    [graph],
  );

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
          <Controls showInteractive={false} position="bottom-left" />
          <Panel position="top-left">
            <GraphToolbar relics={relics} onFit={fit} />
          </Panel>
        </ReactFlow>
        {laidOut === null && <div className={s.empty}>Updating the graph…</div>}
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
