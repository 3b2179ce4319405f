import type { ErrorCode } from "../engine/errors";
import { httpStatusOf } from "./status";
import type { LedgerNode } from "../engine/types";
import type { TurnEvent } from "../dispatcher/run-turn";
import { sseResponse } from "./sse";
import type { TurnStreamEvent } from "../engine/turn-stream";

/**
 * The JSON answer of a finished turn: `{user, reply}`, or — when the provider failed and the
 * reply was sealed `error` — the error's status with `{error, user, reply}`, so scripts see
 * both the failure and the nodes that record it.
 */
export function turnResultResponse(result: {
  user: LedgerNode | null;
  reply: LedgerNode;
  replies?: readonly LedgerNode[] | undefined;
}): Response {
  // A turn of several models fails only when every reply did: the others are its answer.
  const replies = result.replies ?? [result.reply];
  const several = result.replies ? { replies: result.replies } : {};
  const error = result.reply.metadata.error;
  if (result.reply.status === "error" && error && replies.every((r) => r.status === "error")) {
    return Response.json(
      {
        error: { code: error.code, message: error.message },
        user: result.user,
        reply: result.reply,
        ...several,
      },
      { status: httpStatusOf(error.code as ErrorCode) },
    );
  }
  return Response.json({ user: result.user, reply: result.reply, ...several });
}

/** The JSON answer of a finished replay: `{reply}`, or the error's status with `{error, reply}`. */
export function replayResultResponse(reply: LedgerNode): Response {
  const error = reply.metadata.error;
  if (reply.status === "error" && error) {
    return Response.json(
      { error: { code: error.code, message: error.message }, reply },
      { status: httpStatusOf(error.code as ErrorCode) },
    );
  }
  return Response.json({ reply }, { status: 201 });
}

/**
 * `work` that calls `release` once it has ended — finished, thrown or returned early — so
 * long-running work registered with the account gate ([R147]) leaves it.
 */
export async function* releasing<T, R>(
  work: AsyncGenerator<T, R>,
  release: () => void,
): AsyncGenerator<T, R> {
  try {
    return yield* work;
  } finally {
    release();
  }
}

/**
 * The answer of a turn or a replay. With `stream: false` the work runs to its end and
 * `sealed` answers its result as JSON. Otherwise its first step runs here — validation and
 * the first write happen before it, so a refused request answers a plain JSON error, not a
 * stream — and then SSE carries `node`, `delta`, then `done` or `error` per reply.
 */
export async function turnAnswer<R>(
  events: AsyncGenerator<TurnEvent, R>,
  stream: boolean,
  sealed: (result: R) => Response,
): Promise<Response> {
  let step = await events.next();
  if (!stream) {
    while (!step.done) step = await events.next();
    return sealed(step.value);
  }
  const first = step;
  return sseResponse(async (send) => {
    let at = first;
    while (!at.done) {
      const wire = turnStreamEventOf(at.value);
      send(wire.event, wire.data);
      at = await events.next();
    }
  });
}

/** A turn's event as the stream carries it (lib/engine/turn-stream.ts, which the browser decodes with). */
function turnStreamEventOf(event: TurnEvent): TurnStreamEvent {
  switch (event.type) {
    case "node":
      return { event: "node", data: event.node };
    case "delta":
      return { event: "delta", data: { id: event.id, text: event.text, offset: event.offset } };
    case "done":
      return { event: "done", data: { node: event.node } };
    case "error":
      return {
        event: "error",
        data: {
          code: event.code,
          message: event.message,
          ...(event.node ? { node: event.node } : {}),
        },
      };
  }
}
