"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False while the server renders and while React hydrates, true after. What only the browser
 * knows (the time zone, the chosen theme) must render the server's form until then: React
 * keeps server-rendered text and attributes when it hydrates.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
