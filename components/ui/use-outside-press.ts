"use client";

import { useEffect, useRef, type RefObject } from "react";

/**
 * Calls `onOutside` when, while `active`, a press lands outside every element in `inside`
 * (a popover and its trigger, a panel): how the page's popovers close.
 */
export function useOutsidePress(
  active: boolean,
  inside: readonly RefObject<Element | null>[],
  onOutside: () => void,
): void {
  const latest = useRef({ inside, onOutside });
  useEffect(() => {
    latest.current = { inside, onOutside };
  });
  useEffect(() => {
    if (!active) return;
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node;
      const { inside: refs, onOutside: close } = latest.current;
      if (!refs.some((ref) => ref.current?.contains(target))) close();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [active]);
}
