import { ENGINE_ERROR_CODES } from "../engine/errors";
import { tokens } from "../engine/ids";
import { NOTICE_CODES } from "../engine/events";
import type { CompactionTrigger, HeadMove } from "../engine/types";
import {
  WireDecodeError,
  countAt,
  idAt,
  idsAt,
  nullableIdAt,
  objectAt,
  oneOfAt,
  parseData,
  stringAt,
  wireNodeAt,
  type Fields,
} from "../engine/wire-decode";
import type { SessionEvent } from "./session-event";

/** The events a session's channel carries (`access_revoked` travels only between instances). */
export type ChannelEvent = Exclude<SessionEvent, { readonly type: "access_revoked" }>;

// Records, not lists: a move or trigger added to the engine's type fails to compile here.
const MOVES: Record<HeadMove, true> = {
  send: true,
  fork: true,
  checkout: true,
  rewind: true,
  delete_branch: true,
};
const TRIGGERS: Record<CompactionTrigger, true> = { manual: true, auto: true, reactive: true };
const TYPES: Record<ChannelEvent["type"], true> = {
  node_appended: true,
  node_changed: true,
  delta: true,
  turn_finished: true,
  head_moved: true,
  nodes_removed: true,
  session_changed: true,
  compaction_started: true,
  compaction_finished: true,
  compaction_failed: true,
  notice: true,
};

/** The SSE `event:` names of the session channel's events (`ready` aside). */
export const CHANNEL_EVENT_TYPES: readonly ChannelEvent["type"][] = keysOf(TYPES);

function keysOf<K extends string>(record: Record<K, true>): K[] {
  return Object.keys(record).filter((k): k is K => Object.hasOwn(record, k));
}

/**
 * Decodes one event of the session channel (`GET /api/sessions/:id/events`) from its
 * `data:` text; the server writes each {@link SessionEvent} as it is, named by its `type`.
 * Throws a {@link WireDecodeError} naming the field when the event is not what its type
 * promises.
 */
export function decodeSessionEvent(data: string): ChannelEvent {
  const o = objectAt(parseData(data, "event"), "event");
  const type = oneOfAt(o, "type", keysOf(TYPES), "event");
  const at = type;
  switch (type) {
    case "node_appended":
    case "turn_finished":
      return { type, node: wireNodeAt(o["node"], `${at}.node`) };
    case "delta":
      return {
        type,
        id: idAt(o, "id", at),
        text: stringAt(o, "text", at),
        offset: countAt(o, "offset", at),
      };
    case "head_moved":
      return {
        type,
        headId: idAt(o, "headId", at),
        previousHeadId: nullableIdAt(o, "previousHeadId", at),
        move: oneOfAt(o, "move", keysOf(MOVES), at),
      };
    case "compaction_started":
      return { type, trigger: triggerAt(o, at), headId: idAt(o, "headId", at) };
    case "compaction_finished": {
      const counts = objectAt(o["counts"], `${at}.counts`);
      return {
        type,
        trigger: triggerAt(o, at),
        summary_id: idAt(o, "summary_id", at),
        counts: {
          covered: countAt(counts, "covered", `${at}.counts`),
          newlyCovered: countAt(counts, "newlyCovered", `${at}.counts`),
          kept: countAt(counts, "kept", `${at}.counts`),
        },
        tokensBefore: tokensAt(o, "tokensBefore", at),
        tokensAfter: tokensAt(o, "tokensAfter", at),
      };
    }
    case "compaction_failed":
      return {
        type,
        trigger: triggerAt(o, at),
        code: oneOfAt(o, "code", ENGINE_ERROR_CODES, at),
        message: stringAt(o, "message", at),
      };
    case "notice":
      return {
        type,
        code: oneOfAt(o, "code", NOTICE_CODES, at),
        message: stringAt(o, "message", at),
        nodeId: nullableIdAt(o, "nodeId", at),
      };
    case "node_changed":
      return { type, id: idAt(o, "id", at) };
    case "nodes_removed":
      return { type, ids: idsAt(o, "ids", at) };
    case "session_changed":
      return { type };
    default:
      throw new WireDecodeError("event.type", "a channel event", type satisfies never);
  }
}

function triggerAt(o: Fields, at: string): CompactionTrigger {
  return oneOfAt(o, "trigger", keysOf(TRIGGERS), at);
}

function tokensAt(o: Fields, key: string, at: string) {
  return tokens(countAt(o, key, at));
}
