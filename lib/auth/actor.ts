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
  /**
   * A browser sign-in whose password an admin set: until the user picks their own, pages
   * send them to choose one and every other cookie request is `password_change_required`.
   */
  readonly mustChangePassword?: boolean;
  /**
   * The credential the request came with — `session:<id>` (a sign-in) or `key:<id>` — so
   * revoking it stops what it started ([R147]). Absent in single-user mode.
   */
  readonly credential?: string;
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
  user: {
    id: string;
    name: string;
    email: string;
    role?: string | null | undefined;
    mustChangePassword?: boolean | null | undefined;
  },
  via: "cookie" | "key",
  credential?: string,
): Actor {
  return {
    ...(credential === undefined ? {} : { credential }),
    ownerId: asOwnerId(user.id),
    via,
    isAdmin: user.role === "admin",
    name: user.name,
    email: user.email,
    // API keys are credentials of their own, made by the user: a reset does not stop them.
    ...(via === "cookie" && user.mustChangePassword === true ? { mustChangePassword: true } : {}),
  };
}

/** Refuses a signed-in browser that must choose a new password before anything else. */
export function requirePasswordChosen(actor: Actor): Actor {
  if (actor.mustChangePassword) throw new EngineError("password_change_required");
  return actor;
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
