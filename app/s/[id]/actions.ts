"use server";

import type { z } from "zod";
import { sessionIdParam, nodeIdParam } from "@/lib/http/params";
import {
  forkSessionSchema,
  headMoveSchema,
  sendSchema,
  sessionPatchSchema,
  taskSchema,
} from "@/lib/http/schemas";
import { runAction } from "@/lib/server/run-action";

/**
 * The browser's session mutations. Each parses its input with the same schema as the HTTP
 * route for the operation and goes through the same Workspace; the streaming turn stays a
 * route (POST …/turns) because a server action cannot stream Server-Sent Events.
 */

export async function moveHeadAction(sessionId: string, input: z.input<typeof headMoveSchema>) {
  return runAction(async (ws) =>
    ws.moveHead(sessionIdParam(sessionId), headMoveSchema.parse(input)),
  );
}

export async function deleteBranchAction(sessionId: string, tipId: string) {
  return runAction(async (ws) => ws.deleteBranch(sessionIdParam(sessionId), nodeIdParam(tipId)));
}

export async function compactAction(sessionId: string) {
  return runAction(async (ws) => ws.compact(sessionIdParam(sessionId)));
}

export async function taskAction(sessionId: string, input: z.input<typeof taskSchema>) {
  return runAction(async (ws) =>
    ws.spawn({ sessionId: sessionIdParam(sessionId), ...taskSchema.parse(input) }),
  );
}

export async function sendToAction(sessionId: string, input: z.input<typeof sendSchema>) {
  return runAction(async (ws) => {
    const { targetSessionId, content } = sendSchema.parse(input);
    return ws.sendToSession({
      sourceSessionId: sessionIdParam(sessionId),
      targetSessionId,
      content,
    });
  });
}

/** Rename and settings (`/model` included). */
export async function updateSessionAction(
  sessionId: string,
  input: z.input<typeof sessionPatchSchema>,
) {
  return runAction(async (ws) =>
    ws.update(sessionIdParam(sessionId), sessionPatchSchema.parse(input)),
  );
}

/**
 * "New session from this branch with a different system prompt": the branch ending at
 * `headId` (default HEAD) copied under the new prompt; answers the new session.
 */
export async function forkSessionAction(
  sessionId: string,
  input: z.input<typeof forkSessionSchema>,
) {
  return runAction(async (ws) =>
    ws.fork(sessionIdParam(sessionId), forkSessionSchema.parse(input)),
  );
}

export async function deleteSessionAction(sessionId: string) {
  return runAction(async (ws) => {
    await ws.remove(sessionIdParam(sessionId));
    return null;
  });
}
