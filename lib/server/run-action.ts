import { requirePasswordChosen } from "../auth/actor";
import { EngineError, type ErrorCode } from "../engine/errors";
import type { Workspace } from "../dispatcher/workspace";
import { toErrorBody } from "../http/respond";
import { checkActionOrigin, viewer } from "./page-auth";
import { services } from "./services";

/**
 * What a server action answers. Errors travel as values: a thrown error's message would be
 * replaced by a generic one in production, and the browser needs the catalogue's words.
 */
export type ActionResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string } };

/**
 * Runs a server action as the signed-in viewer (Next.js has already checked the request's
 * Origin against its Host): the same Workspace, and so the same ownership check, as the
 * route handlers.
 */
export async function runAction<T>(
  fn: (workspace: Workspace) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    await checkActionOrigin();
    const actor = await viewer();
    if (!actor) throw new EngineError("unauthenticated", "You are signed out; sign in again.");
    requirePasswordChosen(actor);
    return { ok: true, value: await fn((await services()).workspaceFor(actor)) };
  } catch (e) {
    return { ok: false, error: toErrorBody(e) };
  }
}
