"use client";

import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";

const noop = () => () => {};

/**
 * The theme in effect, or null until hydrated. The server cannot know it (the choice lives
 * in the browser), and React keeps the server's attributes when it hydrates, so anything
 * that renders differently per theme must render the neutral form first and switch after.
 */
export function useResolvedTheme(): "light" | "dark" | null {
  const { resolvedTheme } = useTheme();
  const hydrated = useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
  if (!hydrated) return null;
  return resolvedTheme === "dark" ? "dark" : "light";
}
