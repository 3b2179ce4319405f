"use client";

import { useEffect } from "react";
import type { SessionEvent } from "@/lib/events/session-event";
import { useSessionStoreApi } from "@/components/session/session-context";
import type { SessionStoreApi } from "@/components/session/session-store";

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

/** The part of `EventSource` the channel uses (tests pass a fake). */
export interface ChannelSource {
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void): void;
  close(): void;
}

/**
 * Follows one session's channel into the store; returns the function that closes it.
 * Every `ready` catches up, the first one too ([R122]): writes between the server render
 * and the channel opening (a node appended, a reply sealed) sent events nobody heard. The
 * request is `afterSeq` from the synced cursor, cheap when nothing happened.
 */
export function followSessionEvents(
  store: SessionStoreApi,
  catchUp: () => Promise<void>,
  open: (url: string) => ChannelSource,
): () => void {
  const source = open(`/api/sessions/${store.getState().session.id}/events`);
  const onEvent = (e: MessageEvent<string>) => {
    const event = JSON.parse(e.data) as SessionEvent;
    if (store.getState().apply(event)) void catchUp().catch(() => undefined);
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
  source.addEventListener("ready", () => {
    store.getState().setChannelOpen(true);
    void catchUp().catch(() => undefined);
  });
  source.addEventListener("error", () => store.getState().setChannelOpen(false));
  return () => {
    store.getState().setChannelOpen(false);
    source.close();
  };
}

/**
 * Follows the session channel, so another tab's (or another instance's) writes appear
 * live. Events missed while offline are not replayed: after a (re)connect the page catches
 * up (what came after its synced cursor, never the whole ledger).
 */
export function useSessionEvents(catchUp: () => Promise<void>): void {
  const store = useSessionStoreApi();
  const sessionId = store.getState().session.id;
  useEffect(
    () => followSessionEvents(store, catchUp, (url) => new EventSource(url)),
    [sessionId, store, catchUp],
  );
}
