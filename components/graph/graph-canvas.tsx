"use client";

import {
  Background,
  BackgroundVariant,
  Controls,
  Panel,
  ReactFlow,
  useReactFlow,
  type NodeMouseHandler,
  type ReactFlowInstance,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef } from "react";
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
import { layoutGraph } from "./layout";
import { NodeDetail } from "./node-detail";
import { SideCard } from "./side-card";
import { TurnCard } from "./turn-card";
import { useGraphKeys } from "./use-graph-keys";

// Module-level: React Flow warns (and remounts every card) when these change identity.
const NODE_TYPES = { turn: TurnCard, capsule: CapsuleCard, frame: FrameCard, side: SideCard };
const EDGE_TYPES = { spindle: GraphEdgeLine };
// The top padding keeps the first card clear of the toolbar overlay.
const FIT = {
  padding: { top: "64px", x: "24px", bottom: "24px" },
  maxZoom: 1,
  duration: 200,
} as const;
/** Below this a first fit shows shapes, not words: a long session opens on HEAD instead. */
const LEGIBLE_ZOOM = 0.35;
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

  const expanded = useMemo(() => new Set(Object.keys(expandedIds).map(asNodeId)), [expandedIds]);
  const rows = useMemo(() => new Map((graph?.nodes ?? []).map((r) => [r.id, r])), [graph]);
  const selected = selectedId === null ? undefined : rows.get(selectedId);
  // The selected call's provenance: what entered its prompt glows (graph.md).
  const reads = selected?.reads;
  const marks = useMemo(
    () =>
      graph !== null && reads !== undefined && reads.length > 0
        ? provenanceMarks(reads, graph)
        : null,
    [graph, reads],
  );
  const layout = useMemo(
    () => (graph === null ? EMPTY : layoutGraph(graph, { expanded, showRelics, marks })),
    [graph, expanded, showRelics, marks],
  );
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
  // First load: the whole graph when it fits legibly, else HEAD at reading size.
  const headId = graph?.headId ?? null;
  const headCard = headId === null ? null : cardOf(headId);
  const onInit = useCallback(
    async (instance: ReactFlowInstance<GraphNode, GraphEdge>) => {
      await instance.fitView({ ...FIT, duration: 0 });
      if (instance.getZoom() < LEGIBLE_ZOOM && headCard !== null) {
        const card = cards.get(headCard);
        if (card !== undefined) {
          const { x, y } = centreOf(card);
          await instance.setCenter(x, y, { zoom: 0.8 });
        }
      }
      initialised.current = true;
    },
    [cards, headCard],
  );

  // Follow HEAD: when a new turn, a checkout or a compaction moves HEAD's card out of view
  // (a folded capsule can shorten the picture under the viewport), bring it back in.
  const headCardNode = headCard === null ? undefined : cards.get(headCard);
  const initialised = useRef(false);
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
      await flow.setCenter(x, y, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
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

  const relics = graph?.nodes.filter((r) => r.superseded_summary === true).length ?? 0;

  return (
    <div
      ref={rootRef}
      className={s.root}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Conversation graph"
      aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Enter Space F"
    >
      <div className={s.canvas}>
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
          minZoom={0.05}
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
        {graph === null && <div className={s.empty}>Updating the graph…</div>}
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
