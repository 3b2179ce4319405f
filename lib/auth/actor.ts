import { EngineError } from "../engine/errors";
import { LOCAL_OWNER, asOwnerId, type OwnerId } from "../engine/ids";

/** Who is asking: every session read or write is checked against `ownerId`. */
export interface Actor {
  readonly ownerId: OwnerId;
  /** How the request authenticated: a browser sign-in, an API key, or single-user mode. */
  readonly via: "cookie" | "key" | "local";
  readonly isAdmin: boolean;
  readonly name: string;
  readonly email: string | null;
}

/** The one owner of single-user mode (`SPINDLE_AUTH=off`). */
export const LOCAL_ACTOR: Actor = {
  ownerId: LOCAL_OWNER,
  via: "local",
  isAdmin: true,
  name: "Local user",
  email: null,
};

/** The actor of a signed-in (or key-authenticated) account. */
export function accountActor(
  user: { id: string; name: string; email: string; role?: string | null | undefined },
  via: "cookie" | "key",
): Actor {
  return {
    ownerId: asOwnerId(user.id),
    via,
    isAdmin: user.role === "admin",
    name: user.name,
    email: user.email,
  };
}

/** The account id behind an actor; single-user mode has none (and needs no API keys). */
export function accountOf(actor: Actor): string {
  if (actor.via === "local") {
    throw new EngineError(
      "invalid_request",
      "API keys belong to accounts; in single-user mode (SPINDLE_AUTH=off) requests need no key.",
    );
  }
  return actor.ownerId;
}
