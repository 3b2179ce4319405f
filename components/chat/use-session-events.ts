"use client";

import { useEffect } from "react";
import {
  CHANNEL_EVENT_TYPES,
  decodeSessionEvent,
  type ChannelEvent,
} from "@/lib/events/decode-session-event";
import { useSessionStoreApi } from "@/components/session/session-context";
import type { SessionStoreApi } from "@/components/session/session-store";

/** A channel event, or null (reported) when it is malformed. */
function readEvent(data: string): ChannelEvent | null {
  try {
    return decodeSessionEvent(data);
  } catch (error) {
    console.error(error);
    return null;
  }
}

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
    const event = readEvent(e.data);
    // An event this page cannot read is not applied: a catch-up brings what it said.
    if (event === null || store.getState().apply(event)) void catchUp().catch(() => undefined);
  };
  for (const type of CHANNEL_EVENT_TYPES) source.addEventListener(type, onEvent);
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
