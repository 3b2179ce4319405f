"use client";

import { useCallback, type KeyboardEvent } from "react";
import type { PageRow } from "./page-row";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { isSideLeafKind } from "@/lib/engine/side-leaf";
import { useSessionStoreApi } from "@/components/session/session-context";
import type { NavEntry } from "./flow-types";
import { navigate, type NavKey } from "./nav";

const ARROWS: Readonly<Record<string, NavKey>> = {
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
};

// Keys typed into the detail panel's controls belong to them (Enter on "Checkout" must not
// check out twice).
const OWN_KEYS = "button, input, textarea, select, a, summary, [contenteditable]";

export interface GraphKeysInput {
  readonly nav: ReadonlyMap<string, NavEntry>;
  readonly rows: ReadonlyMap<NodeId, PageRow>;
  readonly headId: NodeId | null;
  /** The card that draws a node: itself, or the capsule that folds it; null if undrawn. */
  readonly cardOf: (id: NodeId) => string | null;
  /** The summary whose capsule Space folds or unfolds from a selected node, if any. */
  readonly capsuleFor: (id: NodeId) => NodeId | null;
  readonly onCheckout: (id: NodeId) => void;
  readonly onFit: () => void;
  readonly onBackToHead: () => void;
  readonly onToggleMinimap: () => void;
  /** Starts a comparison from the selected node: the next card clicked is the other. */
  readonly onCompare: (id: NodeId) => void;
  /** Brings a card into view after the keyboard moved the selection to it. */
  readonly reveal: (cardId: string) => void;
}

/**
 * The graph's keyboard (graph.md, Interaction; listed in graph-shortcuts.ts): arrows move
 * the selection along edges, Enter checks out, Space folds or unfolds the capsule, `f` fits
 * the view, `h` goes back to HEAD, `m` shows or hides the map, `c` compares the selection
 * with the next card picked. Reads the selection from the store at key time, so the
 * handler does not change with it.
 */
export function useGraphKeys(input: GraphKeysInput): (event: KeyboardEvent) => void {
  const store = useSessionStoreApi();
  const { nav, rows, headId, cardOf, capsuleFor, onCheckout, onFit, reveal } = input;
  const { onBackToHead, onToggleMinimap, onCompare } = input;
  return useCallback(
    (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target instanceof Element && target !== event.currentTarget && target.closest(OWN_KEYS)) {
        return;
      }
      const state = store.getState();
      const selected = state.selectedId;
      const arrow = ARROWS[event.key];
      if (arrow !== undefined) {
        event.preventDefault();
        const from = selected === null ? null : cardOf(selected);
        const to =
          from === null ? (headId ?? nav.keys().next().value ?? null) : navigate(nav, from, arrow);
        if (to !== null) {
          state.select(asNodeId(to));
          reveal(to);
        }
        return;
      }
      const letter = event.key.length === 1 ? event.key.toLowerCase() : "";
      if (letter === "f" || letter === "h" || letter === "m") {
        event.preventDefault();
        if (letter === "f") onFit();
        else if (letter === "h") onBackToHead();
        else onToggleMinimap();
        return;
      }
      const row = selected === null ? undefined : rows.get(selected);
      if (letter === "c" && row !== undefined && !isSideLeafKind(row.kind)) {
        event.preventDefault();
        onCompare(row.id);
        return;
      }
      if (event.key === "Enter" && row !== undefined && !isSideLeafKind(row.kind)) {
        event.preventDefault();
        if (row.id !== headId) onCheckout(row.id);
        return;
      }
      if (event.key === " " && selected !== null) {
        // Space on a capsule, its frame, or anything it folds or holds.
        const capsule = capsuleFor(selected);
        if (capsule !== null) {
          event.preventDefault();
          state.toggleCapsule(capsule);
        }
      }
    },
    [
      store,
      nav,
      rows,
      headId,
      cardOf,
      capsuleFor,
      onCheckout,
      onFit,
      reveal,
      onBackToHead,
      onToggleMinimap,
      onCompare,
    ],
  );
}
