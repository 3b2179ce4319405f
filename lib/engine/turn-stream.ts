import type { NodeId } from "./ids";
import type { WireNode } from "./wire-node";
import {
  WireDecodeError,
  countAt,
  idAt,
  objectAt,
  parseData,
  stringAt,
  wireNodeAt,
} from "./wire-decode";

/**
 * The Server-Sent Events of a turn's stream and a replay's (`POST .../turns`,
 * `POST .../replays`): `node` for each node as it enters the ledger, `delta` for text
 * streamed into a reply, then `done` or `error` per reply. The server encodes exactly these
 * (lib/http/turn-response.ts) and the browser decodes them with {@link decodeTurnStreamEvent}:
 * one definition for both ends.
 */
export interface TurnStreamPayloads {
  /** A node entered the ledger (a streaming reply is announced once, when it opens). */
  readonly node: WireNode;
  /** Text streamed into a reply, starting at `offset` of its content ([R89]). */
  readonly delta: { readonly id: NodeId; readonly text: string; readonly offset: number };
  /** A reply was sealed. */
  readonly done: { readonly node: WireNode };
  /** A reply (or the request) failed; `node` is the reply sealed `error`, when there is one. */
  readonly error: { readonly code: string; readonly message: string; readonly node?: WireNode };
}

export type TurnStreamEventName = keyof TurnStreamPayloads;

/** One event of the stream: its SSE `event:` name and its `data:`. */
export type TurnStreamEvent = {
  readonly [K in TurnStreamEventName]: { readonly event: K; readonly data: TurnStreamPayloads[K] };
}[TurnStreamEventName];

/** The names, in the order a reply's events come. */
export const TURN_STREAM_EVENTS: readonly TurnStreamEventName[] = [
  "node",
  "delta",
  "done",
  "error",
];

/**
 * Decodes one event of a turn's stream from its SSE `event:` name and `data:` text. Throws
 * a {@link WireDecodeError} naming the event and the field when it is not what the name
 * promises — an unknown name, text that is not JSON, a field missing or of the wrong type.
 */
export function decodeTurnStreamEvent(event: string, data: string): TurnStreamEvent {
  const json = parseData(data, event);
  switch (event) {
    case "node":
      return { event, data: wireNodeAt(json, "node") };
    case "delta": {
      const o = objectAt(json, "delta");
      return {
        event,
        data: {
          id: idAt(o, "id", "delta"),
          text: stringAt(o, "text", "delta"),
          offset: countAt(o, "offset", "delta"),
        },
      };
    }
    case "done":
      return { event, data: { node: wireNodeAt(objectAt(json, "done")["node"], "done.node") } };
    case "error": {
      const o = objectAt(json, "error");
      const failed = {
        code: stringAt(o, "code", "error"),
        message: stringAt(o, "message", "error"),
      };
      const node = o["node"];
      return {
        event,
        data: node === undefined ? failed : { ...failed, node: wireNodeAt(node, "error.node") },
      };
    }
    default:
      throw new WireDecodeError("event", `one of ${TURN_STREAM_EVENTS.join(", ")}`, event);
  }
}
