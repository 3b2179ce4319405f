import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { Actor } from "../auth/actor";
import { signedInActor } from "../auth/authenticate";
import { EngineError } from "../engine/errors";
import { isOwnOriginOf } from "../http/edge";
import type { Workspace } from "../dispatcher/workspace";
import { services } from "./services";

/** Where a user whose password an admin set chooses their own before anything else. */
export const PASSWORD_PAGE = "/account/password";

/** Who is viewing a page or calling a server action, or null when nobody is signed in. */
export async function viewer(): Promise<Actor | null> {
  const s = await services();
  return signedInActor(await headers(), s.authDeps);
}

/** True until the first account exists (the home page then sends visitors to sign-up). */
export async function firstRun(): Promise<boolean> {
  const s = await services();
  return s.config.auth && (await s.database.db.user.count()) === 0;
}

/**
 * The signed-in viewer's workspace for a page; anyone else is sent to sign-in (or to
 * sign-up on first run) and comes back to `returnTo` afterwards.
 */
export async function requireViewer(returnTo: string): Promise<Workspace> {
  const actor = await viewer();
  if (!actor) {
    redirect((await firstRun()) ? "/sign-up" : `/sign-in?next=${encodeURIComponent(returnTo)}`);
  }
  if (actor.mustChangePassword) redirect(PASSWORD_PAGE);
  return (await services()).workspaceFor(actor);
}

/**
 * A server action's `Origin`, compared in full like the API's ([R142], [R146]): Next.js
 * compares the host alone, and with `X-Forwarded-Host` from anyone.
 */
export async function checkActionOrigin(): Promise<void> {
  const h = await headers();
  const origin = h.get("origin");
  const { config } = await services();
  if (origin === null || !isOwnOriginOf(origin, h, config, h.get("host") ?? "")) {
    throw new EngineError("cross_origin");
  }
}
