import type { ErrorCode } from "../engine/errors";
import { httpStatusOf } from "./status";
import type { LedgerNode } from "../engine/types";

/**
 * The JSON answer of a finished turn: `{user, reply}`, or — when the provider failed and the
 * reply was sealed `error` — the error's status with `{error, user, reply}`, so scripts see
 * both the failure and the nodes that record it.
 */
export function turnResultResponse(result: {
  user: LedgerNode | null;
  reply: LedgerNode;
}): Response {
  const error = result.reply.metadata.error;
  if (result.reply.status === "error" && error) {
    return Response.json(
      {
        error: { code: error.code, message: error.message },
        user: result.user,
        reply: result.reply,
      },
      { status: httpStatusOf(error.code as ErrorCode) },
    );
  }
  return Response.json({ user: result.user, reply: result.reply });
}
