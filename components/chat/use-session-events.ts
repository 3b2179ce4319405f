"use client";

import { useEffect } from "react";
import type { SessionEvent } from "@/lib/events/session-event";
import { selectStreaming, useSessionStoreApi } from "@/components/session/session-context";

const EVENT_TYPES: readonly SessionEvent["type"][] = [
  "node_appended",
  "node_changed",
  "delta",
  "turn_finished",
  "head_moved",
  "nodes_removed",
  "session_changed",
  "compaction_started",
  "compaction_finished",
  "compaction_failed",
  "notice",
];

/**
 * Follows the session channel, so another tab's (or another instance's) writes appear
 * live. Events missed while offline are not replayed: after a reconnect the page catches up
 * (what came after the highest seq it holds, never the whole ledger).
 */
export function useSessionEvents(catchUp: () => Promise<void>): void {
  const store = useSessionStoreApi();
  const sessionId = store.getState().session.id;
  useEffect(() => {
    const source = new EventSource(`/api/sessions/${sessionId}/events`);
    let opened = false;
    const onEvent = (e: MessageEvent<string>) => {
      const event = JSON.parse(e.data) as SessionEvent;
      if (store.getState().apply(event)) void catchUp().catch(() => undefined);
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
    source.addEventListener("ready", () => {
      // A reply the page was rendered streaming may have sealed before the channel opened:
      // its `turn_finished` is gone, so the first connection checks it too.
      if (opened || selectStreaming(store.getState())) void catchUp().catch(() => undefined);
      opened = true;
    });
    return () => source.close();
  }, [sessionId, store, catchUp]);
}
