"use client";

import { useSyncExternalStore } from "react";

const QUERY = "(max-width: 900px)";

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(QUERY);
  list.addEventListener("change", onChange);
  return () => list.removeEventListener("change", onChange);
}

/**
 * Under 900 px the graph is a drawer over the transcript instead of a side pane. The server
 * cannot know the width, so it renders the wide layout; CSS keeps a narrow first paint right.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}
