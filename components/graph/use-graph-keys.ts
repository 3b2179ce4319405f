"use client";

import { useCallback, useRef, type KeyboardEvent } from "react";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { isSideLeafKind } from "@/lib/engine/side-leaf";
import { useSessionStoreApi } from "@/components/session/session-context";
import type { NavKey } from "./nav";

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
  /** Where an arrow key leads from a card (the model's; a large graph's worker answers). */
  readonly navigate: (from: string, key: NavKey) => Promise<string | null>;
  /** The card an arrow selects when nothing is selected and there is no HEAD. */
  readonly first: string | null;
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
  const { navigate, first, headId, cardOf, capsuleFor, onCheckout, onFit, reveal } = input;
  // Arrow moves run one after another, each from where the one before left the selection:
  // a large graph's worker answers them. At most one waits behind the one running (a key
  // held down while the worker is busy does not queue moves that go on after it is let
  // go), and the keys that act on the selection (Enter, `c`, Space) wait for them too, so
  // they act where the arrows led.
  const moves = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  const { onBackToHead, onToggleMinimap, onCompare } = input;
  /** Enter, `c` or Space on the selection as it is now; whether the key was used. */
  const actOnSelection = useCallback(
    (key: string, letter: string): boolean => {
      const state = store.getState();
      const selected = state.selectedId;
      // The node as the store holds it: its kind says whether it can be checked out.
      const row = selected === null ? undefined : state.nodes.get(selected);
      if (letter === "c" && row !== undefined && !isSideLeafKind(row.kind)) {
        onCompare(row.id);
        return true;
      }
      if (key === "Enter" && row !== undefined && !isSideLeafKind(row.kind)) {
        if (row.id !== headId) onCheckout(row.id);
        return true;
      }
      if (key === " " && selected !== null) {
        // Space on a capsule, its frame, or anything it folds or holds.
        const capsule = capsuleFor(selected);
        if (capsule !== null) {
          state.toggleCapsule(capsule);
          return true;
        }
      }
      return false;
    },
    [store, headId, onCompare, onCheckout, capsuleFor],
  );
  return useCallback(
    (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target instanceof Element && target !== event.currentTarget && target.closest(OWN_KEYS)) {
        return;
      }
      const after = (act: () => void | Promise<void>) => {
        pending.current += 1;
        moves.current = moves.current
          .then(act)
          // A move that failed (the worker went away) moves nothing; the keys go on working.
          .catch(() => undefined)
          .finally(() => {
            pending.current -= 1;
          });
      };
      const arrow = ARROWS[event.key];
      if (arrow !== undefined) {
        event.preventDefault();
        if (pending.current >= 2) return;
        after(async () => {
          const before = store.getState().selectedId;
          const from = before === null ? null : cardOf(before);
          const to = from === null ? (headId ?? first) : await navigate(from, arrow);
          // A click while the answer was on its way wins.
          if (to === null || store.getState().selectedId !== before) return;
          store.getState().select(asNodeId(to));
          reveal(to);
        });
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
      const onSelection = letter === "c" || event.key === "Enter" || event.key === " ";
      if (!onSelection) return;
      // While an arrow's answer is on its way, the key waits for it and acts where it led.
      if (pending.current > 0) {
        if (store.getState().selectedId !== null) event.preventDefault();
        after(() => {
          actOnSelection(event.key, letter);
        });
        return;
      }
      if (actOnSelection(event.key, letter)) event.preventDefault();
    },
    [
      store,
      navigate,
      first,
      headId,
      cardOf,
      actOnSelection,
      onFit,
      reveal,
      onBackToHead,
      onToggleMinimap,
    ],
  );
}
