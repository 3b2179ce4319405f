"use client";

import { useEffect, useRef } from "react";

type EscapeHandler = (e: KeyboardEvent) => void;

/**
 * The Escape handlers active now, the most recently activated last. Escape goes to the
 * topmost layer only: a panel opened while a reply streams closes, and the reply goes on.
 */
export class EscapeLayers {
  private readonly layers: { readonly current: EscapeHandler }[] = [];

  /** Adds a layer on top; the function returned removes it (wherever it is by then). */
  add(layer: { readonly current: EscapeHandler }): () => void {
    this.layers.push(layer);
    return () => {
      const at = this.layers.lastIndexOf(layer);
      if (at >= 0) this.layers.splice(at, 1);
    };
  }

  get size(): number {
    return this.layers.length;
  }

  /**
   * Gives Escape to the top layer — unless another control used it (`defaultPrevented`:
   * the search field, a menu) or a dialog is open (the dialog closes on it).
   */
  handle(e: KeyboardEvent, dialogOpen: boolean): void {
    if (e.key !== "Escape" || e.defaultPrevented || dialogOpen) return;
    this.layers.at(-1)?.current(e);
  }
}

const page = new EscapeLayers();
const onKey = (e: KeyboardEvent) => page.handle(e, document.querySelector("dialog[open]") !== null);

/**
 * Calls `onEscape` on Escape while `active` and no layer activated later is also waiting
 * for it ({@link EscapeLayers}). For the page's drawers and panels and its
 * Esc-stops-the-reply.
 */
export function useEscapeKey(active: boolean, onEscape: EscapeHandler): void {
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    if (!active) return;
    const remove = page.add(latest);
    if (page.size === 1) window.addEventListener("keydown", onKey);
    return () => {
      remove();
      if (page.size === 0) window.removeEventListener("keydown", onKey);
    };
  }, [active]);
}
