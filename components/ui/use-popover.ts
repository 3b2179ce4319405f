"use client";

import { useCallback, useRef, useState } from "react";
import {
  autoUpdate,
  flip,
  offset,
  shift,
  size,
  useFloating,
  type Placement,
} from "@floating-ui/react";
import { useOutsidePress } from "./use-outside-press";

/** Kept this far from the viewport's edges. */
const EDGE = 8;

/**
 * A popover anchored to its trigger (the session menu, the model pickers): placed by
 * Floating UI below the trigger, flipped above it and shifted sideways so it stays inside
 * the viewport — a phone put the session menu at x = −134 before — and no taller than the
 * room left (at least `minHeight`). A press outside both closes it. Escape is the caller's
 * (`useEscapeKey` or the panel's own handler), as is focus.
 */
export function usePopover(options: {
  readonly placement: Placement;
  readonly gap: number;
  readonly minHeight: number;
}) {
  const { placement, gap, minHeight } = options;
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const panelRef = useRef<HTMLDivElement | null>(null);
  const { refs, floatingStyles } = useFloating({
    open,
    placement,
    strategy: "fixed",
    middleware: [
      offset(gap),
      flip({ padding: EDGE }),
      shift({ padding: EDGE }),
      size({
        padding: EDGE,
        apply({ availableHeight, elements }) {
          elements.floating.style.maxHeight = `${Math.max(minHeight, availableHeight)}px`;
        },
      }),
    ],
    whileElementsMounted: open ? autoUpdate : undefined,
  });

  useOutsidePress(open, [panelRef, triggerRef], () => setOpen(false));

  const { setReference, setFloating } = refs;
  /** The trigger's `ref`. */
  const trigger = useCallback(
    (el: HTMLButtonElement | null) => {
      triggerRef.current = el;
      setReference(el);
    },
    [setReference],
  );
  /** The panel's `ref`. */
  const panel = useCallback(
    (el: HTMLDivElement | null) => {
      panelRef.current = el;
      setFloating(el);
    },
    [setFloating],
  );
  return { open, setOpen, trigger, panel, triggerRef, panelRef, floatingStyles };
}
