"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { useSession } from "@/components/session/session-context";
import type { ViewRequest } from "@/components/session/session-store";
import type { GraphEdge, GraphNode } from "./flow-node-types";
import type { FlowNode } from "./flow-types";
import {
  capsuleAbove,
  fitViewport,
  frameViewport,
  headViewport,
  openingViewport,
  withCapsule,
  READABLE_ZOOM,
  READING_ZOOM,
  type Box,
  type Pane,
  type Rect,
  type Viewport,
} from "./opening-view";
import {
  bringIntoView,
  capsuleBox,
  isClear,
  keepInPlace,
  sameView,
  screenRect,
} from "./view-moves";

export interface GraphViewportInput {
  readonly cards: ReadonlyMap<string, FlowNode>;
  /** The card that draws a node: itself, or the capsule that folds it; null if undrawn. */
  readonly cardOf: (id: NodeId) => string | null;
  readonly headId: NodeId | null;
  /** The capsules on HEAD's branch (the summaries it reads), folded. */
  readonly branchCapsules: readonly FlowNode[];
  readonly expanded: ReadonlySet<NodeId>;
  readonly selectedId: NodeId | null;
  /** The element React Flow draws in: its size, and the controls drawn over it. */
  readonly paneRef: RefObject<HTMLDivElement | null>;
}

export interface GraphViewport {
  /** React Flow's `onInit`. */
  readonly onInit: () => void;
  /** React Flow's `onMoveStart`: a move the user made (a drag, a wheel) detaches the view. */
  readonly onMoveStart: (event: unknown) => void;
  /** The user moved the view some other way (the minimap): it stops following HEAD. */
  readonly detach: () => void;
  /** The user acted on a card in view (a checkout from the graph): follow HEAD again. */
  readonly attach: () => void;
  /** The whole graph, fitted from the layout. */
  readonly fit: () => void;
  /** HEAD's card at reading size; the view follows HEAD again. */
  readonly backToHead: () => void;
  /** Brings a card into view (the keyboard moved the selection to it). */
  readonly reveal: (cardId: string) => void;
}

/** A card's identity and place, as a key. */
const placeOf = (card: FlowNode) => `${card.id}@${card.position.x},${card.position.y}`;

const ANIMATE = { duration: 200 } as const;

/**
 * The pane's size, and where the controls drawn over it (those in React Flow's panels) are:
 * each control on its own, so the space beside a short one in a panel is not counted.
 */
function measurePane(element: HTMLElement | null): Pane {
  if (element === null) return { width: 0, height: 0 };
  const box = element.getBoundingClientRect();
  const covers: Rect[] = [];
  for (const panel of element.querySelectorAll(".react-flow__panel")) {
    for (const control of panel.children.length > 0 ? panel.children : [panel]) {
      const r = control.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      covers.push({
        left: r.left - box.left,
        top: r.top - box.top,
        right: r.right - box.left,
        bottom: r.bottom - box.top,
      });
    }
  }
  return { width: box.width, height: box.height, covers };
}

/** HEAD's card at `zoom` a little below the middle, moved up or aside off the controls. */
function headClearView(head: Box, pane: Pane, zoom: number): Viewport {
  return bringIntoView(head, headViewport(head, pane, zoom), pane);
}

/** Whether any part of a box shows in a pane of this size under a viewport. */
function showsIn(box: Box, view: Viewport, pane: Pane): boolean {
  const r = screenRect(box, view);
  return r.right > 0 && r.bottom > 0 && r.left < pane.width && r.top < pane.height;
}

interface PendingFold {
  readonly id: string;
  /** The capsule's box before the toggle, and the view it was seen in. */
  readonly was: Box;
  readonly view: Viewport;
  readonly unfolding: boolean;
}

/**
 * Where the graph looks (issue 20). It opens on HEAD at reading size (or whole, when that
 * stays readable) and follows HEAD as it moves — a new reply, a checkout — until the user
 * moves the view themselves; then it stays put ("Back to HEAD" brings it back). Unfolding a
 * capsule keeps the capsule where it was on screen and frames its originals; folding
 * returns the view. "What did it read?" frames the nodes read; a version switch keeps the
 * switched message in place. Every move keeps card text at readable size.
 */
export function useGraphViewport(input: GraphViewportInput): GraphViewport {
  const { cards, cardOf, headId, branchCapsules, expanded, selectedId, paneRef } = input;
  const flow = useReactFlow<GraphNode, GraphEdge>();
  const paneSize = useCallback(() => measurePane(paneRef.current), [paneRef]);
  /** Where the view is going: the end of a move still under way, else where it is. */
  const target = useRef<{ view: Viewport; until: number } | null>(null);
  const intended = useCallback((): Viewport => {
    const moving = target.current;
    return moving !== null && performance.now() < moving.until ? moving.view : flow.getViewport();
  }, [flow]);
  const move = useCallback(
    (view: Viewport, duration: number = ANIMATE.duration) => {
      target.current = { view, until: performance.now() + duration };
      void flow.setViewport(view, duration > 0 ? { duration } : undefined);
    },
    [flow],
  );
  const viewRequest = useSession((s) => s.viewRequest);
  const [ready, setReady] = useState(false);
  const onInit = useCallback(() => setReady(true), []);
  const initialised = useRef(false);
  /** The user moved the view since it last followed HEAD. */
  const detached = useRef(false);
  // Where HEAD's card was when the view last followed it: a new model that leaves it in
  // place (a selection's marks, an expanded capsule elsewhere) does not move the view.
  const followed = useRef<string | null>(null);
  /** The cards of the previous commit: where a capsule was before it was toggled. */
  const lastCards = useRef(cards);
  const lastExpanded = useRef(expanded);
  const pendingFold = useRef<PendingFold | null>(null);
  /** Per unfolded capsule: the view before unfolding and the one unfolding set. */
  const unfolded = useRef(new Map<string, { before: Viewport; after: Viewport }>());
  const pendingReads = useRef<ViewRequest | null>(null);
  const handled = useRef(0);

  const headCardId = headId === null ? null : cardOf(headId);
  const head = headCardId === null ? undefined : cards.get(headCardId);

  // First load: set in one step once React Flow is ready and the first layout has arrived
  // (from the worker, it may come later than React Flow's init).
  useEffect(() => {
    if (initialised.current || !ready || cards.size === 0) return;
    const pane = paneSize();
    if (pane.width === 0) return;
    initialised.current = true;
    if (head !== undefined) followed.current = placeOf(head);
    const opening = openingViewport(cards.values(), pane, head ?? null);
    // HEAD alone in the middle may lie under the map in a short pane: it is moved off it.
    move(head === undefined ? opening : bringIntoView(head, opening, pane), 0);
  }, [ready, cards, head, paneSize, move]);

  // A capsule was folded or unfolded (by a click, Space, the detail panel or its frame):
  // note where it was on screen, to keep it there once the new picture arrives.
  useEffect(() => {
    const before = lastExpanded.current;
    lastExpanded.current = expanded;
    if (before === expanded || !initialised.current) return;
    for (const id of new Set([...before, ...expanded])) {
      if (before.has(id) === expanded.has(id)) continue;
      const old = lastCards.current.get(id);
      if (old === undefined) continue;
      // Looking at the capsule is a move of its own: HEAD moving below it must not pull.
      detached.current = true;
      pendingFold.current = {
        id,
        was: capsuleBox(old),
        view: flow.getViewport(),
        unfolding: expanded.has(id),
      };
    }
  }, [expanded, flow]);

  useEffect(() => {
    lastCards.current = cards;
    const pending = pendingFold.current;
    const card = pending === null ? undefined : cards.get(pending.id);
    if (pending === null || card === undefined || (card.type === "frame") !== pending.unfolding) {
      return;
    }
    pendingFold.current = null;
    const pane = paneSize();
    if (pending.unfolding) {
      // The capsule stays where it was; the view slides only as far as its originals need.
      const zoom = Math.max(pending.view.zoom, READABLE_ZOOM);
      const view = bringIntoView(
        card,
        keepInPlace(pending.was, pending.view, capsuleBox(card), zoom),
        pane,
      );
      unfolded.current.set(pending.id, { before: pending.view, after: view });
      move(view);
      return;
    }
    const saved = unfolded.current.get(pending.id);
    unfolded.current.delete(pending.id);
    const view =
      saved !== undefined && sameView(saved.after, pending.view)
        ? saved.before
        : keepInPlace(pending.was, pending.view, card, pending.view.zoom);
    move(view);
  }, [cards, paneSize, move]);

  // Requests from the transcript: frame what a reply read; keep a switched version in place.
  useEffect(() => {
    if (viewRequest === null || viewRequest.nonce === handled.current || !initialised.current) {
      return;
    }
    handled.current = viewRequest.nonce;
    if (viewRequest.kind === "reads") {
      pendingReads.current = viewRequest;
      return;
    }
    const fromId = cardOf(viewRequest.from);
    const toId = cardOf(viewRequest.id);
    const was = fromId === null ? undefined : cards.get(fromId);
    const now = toId === null ? undefined : cards.get(toId);
    // Positions do not depend on HEAD, so both versions' cards are where they will stay.
    if (was !== undefined && now !== undefined) {
      const view = flow.getViewport();
      move(keepInPlace(was, view, now, view.zoom));
    }
    // HEAD is about to move to the version's tip: the view stays with the message.
    const tipId = cardOf(viewRequest.head);
    const tip = tipId === null ? undefined : cards.get(tipId);
    if (tip !== undefined) followed.current = placeOf(tip);
  }, [viewRequest, cards, cardOf, flow, move]);

  // "What did it read?": once the marks are drawn, frame the nodes read and the reply.
  useEffect(() => {
    const pending = pendingReads.current;
    if (pending === null) return;
    if (selectedId !== pending.id) {
      if (selectedId !== null) pendingReads.current = null;
      return;
    }
    const replyId = cardOf(pending.id);
    const reply = replyId === null ? undefined : cards.get(replyId);
    const read: FlowNode[] = [];
    for (const card of cards.values()) if (card.data.glow === "glow") read.push(card);
    if (reply === undefined || read.length === 0) return;
    pendingReads.current = null;
    detached.current = true;
    const { view } = frameViewport([...read, reply], paneSize(), reply);
    move(view);
  }, [cards, selectedId, cardOf, paneSize, move]);

  // A new layout with HEAD on the same node — a big session's rest landing, a branch
  // deleted elsewhere — may move every card. The card the user selected stays where it is
  // on screen, if it showed, and HEAD's new place counts as followed: the view neither
  // loses the selection nor jumps to HEAD. A capsule folded or unfolded moves the view
  // itself (above), and HEAD moving to another node is followed (below).
  const selectedCardId = selectedId === null ? null : cardOf(selectedId);
  const selectedCard = selectedCardId === null ? undefined : cards.get(selectedCardId);
  const anchor = useRef<{
    selectedId: NodeId;
    card: FlowNode;
    headCardId: string | null;
    expanded: ReadonlySet<NodeId>;
    /** A fold or unfold was under way: its own move frames the new layout. */
    folding: boolean;
  } | null>(null);
  useEffect(() => {
    const was = anchor.current;
    const same =
      was !== null &&
      initialised.current &&
      was.selectedId === selectedId &&
      was.headCardId === headCardId &&
      was.expanded === expanded &&
      !was.folding;
    if (selectedCard === undefined || selectedId === null) {
      // The selected card is not in this part of a new layout (a redraw brings HEAD's
      // area first): the view waits for it where it is, HEAD's new place counted as seen.
      if (same && selectedId !== null && showsIn(was.card, intended(), paneSize())) {
        if (head !== undefined) followed.current = placeOf(head);
        return;
      }
      anchor.current = null;
      return;
    }
    anchor.current = {
      selectedId,
      card: selectedCard,
      headCardId,
      expanded,
      folding: pendingFold.current !== null,
    };
    if (!same || was.card.id !== selectedCard.id) return;
    const { x, y } = selectedCard.position;
    if (was.card.position.x === x && was.card.position.y === y) return;
    const view = intended();
    if (!showsIn(was.card, view, paneSize())) return;
    if (head !== undefined) followed.current = placeOf(head);
    move(keepInPlace(was.card, view, selectedCard, view.zoom), 0);
  }, [selectedId, selectedCard, headCardId, head, expanded, intended, paneSize, move]);

  // Follow HEAD: when a new turn or a checkout moves HEAD's card out of view, bring it back
  // at readable size — unless the user has moved the view since.
  useEffect(() => {
    if (!initialised.current || head === undefined) return;
    const place = placeOf(head);
    if (followed.current === place) return;
    followed.current = place;
    if (detached.current) return;
    const view = intended();
    const pane = paneSize();
    const headClear = view.zoom >= READABLE_ZOOM && isClear(head, view, pane, 24);
    // The capsule HEAD's branch reads (a compaction just made one, or HEAD moved on below
    // it) stays in sight with HEAD while both fit at readable zoom.
    const capsule = capsuleAbove(branchCapsules, head);
    if (headClear && (capsule === null || isClear(capsule, view, pane))) return;
    const both = capsule === null ? null : withCapsule(capsule, head, pane);
    if (both !== null) {
      move(both);
      return;
    }
    if (headClear) return;
    move(headClearView(head, pane, Math.max(view.zoom, READABLE_ZOOM)));
  }, [head, branchCapsules, intended, paneSize, move]);

  // The pane changed size (the detail panel opened below it or grew with a longer message,
  // the window was resized): the card the user is looking at — the selection, else HEAD
  // while the view follows it — stays in view and clear of the controls, if it showed.
  const looking = useRef<{ selected: Box | undefined; head: Box | undefined }>({
    selected: undefined,
    head: undefined,
  });
  useEffect(() => {
    looking.current = { selected: selectedCard, head };
  }, [selectedCard, head]);
  useEffect(() => {
    const element = paneRef.current;
    if (element === null) return;
    let last = measurePane(element);
    const observer = new ResizeObserver(() => {
      const before = last;
      const pane = measurePane(element);
      last = pane;
      const { selected, head: headCard } = looking.current;
      const card = selected ?? (detached.current ? undefined : headCard);
      if (!initialised.current || card === undefined || pane.width === 0) return;
      if (pane.width === before.width && pane.height === before.height) return;
      const view = intended();
      if (!showsIn(card, view, before) || isClear(card, view, pane)) return;
      move(bringIntoView(card, view, pane), 0);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [paneRef, intended, move]);

  const onMoveStart = useCallback((event: unknown) => {
    // Programmatic moves (setViewport) carry no event.
    if (event !== null && event !== undefined) detached.current = true;
  }, []);
  const detach = useCallback(() => {
    detached.current = true;
  }, []);
  const attach = useCallback(() => {
    detached.current = false;
  }, []);
  const fit = useCallback(() => {
    if (cards.size === 0) return;
    detached.current = true;
    move(fitViewport(cards.values(), paneSize()));
  }, [cards, paneSize, move]);
  const backToHead = useCallback(() => {
    detached.current = false;
    if (head === undefined) return;
    followed.current = placeOf(head);
    move(headClearView(head, paneSize(), READING_ZOOM));
  }, [head, paneSize, move]);
  const reveal = useCallback(
    (cardId: string) => {
      const card = cards.get(cardId);
      if (card === undefined) return;
      detached.current = true;
      const pane = paneSize();
      const view = intended();
      const zoom = Math.max(view.zoom, READABLE_ZOOM);
      if (zoom === view.zoom && isClear(card, view, pane, 24)) return;
      move(bringIntoView(card, { ...view, zoom }, pane), 150);
    },
    [cards, paneSize, intended, move],
  );

  return { onInit, onMoveStart, detach, attach, fit, backToHead, reveal };
}
