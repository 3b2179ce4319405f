"use client";

import { useTheme } from "next-themes";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * The theme in effect, or null until hydrated (the choice lives in the browser): anything
 * that renders differently per theme renders the neutral form first and switches after.
 */
export function useResolvedTheme(): "light" | "dark" | null {
  const { resolvedTheme } = useTheme();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return resolvedTheme === "dark" ? "dark" : "light";
}
