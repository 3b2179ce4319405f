"use client";

import { useSyncExternalStore } from "react";

function matches(query: string): boolean {
  return window.matchMedia(query).matches;
}

/**
 * Whether a media query matches, kept current. The server cannot know the width, so it
 * answers `serverValue` (the wide layout); CSS keeps a narrow first paint right.
 */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => matches(query),
    () => serverValue,
  );
}

/** Under 900 px the graph is a drawer over the transcript instead of a side pane. */
export function useNarrowScreen(): boolean {
  return useMediaQuery("(max-width: 900px)");
}

/** A phone: the chat header keeps one row, its secondary actions in the session menu. */
export const PHONE_QUERY = "(max-width: 720px)";
/** Below this the header moves Search, the theme and the account into the session menu. */
export const CROWDED_QUERY = "(max-width: 1359px)";

/**
 * How much the chat header shows in line (issue 21): "wide" everything, "medium" all but
 * Search, the theme and the account (in the session menu), "phone" only the way back, the
 * title, the model and the menu, which holds the rest.
 */
export function useHeaderLayout(): "phone" | "medium" | "wide" {
  const phone = useMediaQuery(PHONE_QUERY);
  const crowded = useMediaQuery(CROWDED_QUERY);
  return phone ? "phone" : crowded ? "medium" : "wide";
}
