/**
 * Branded identifiers. A NodeId and a SessionId are both strings on the wire, but the type
 * system keeps them apart so a session id can never be passed where a node id is expected.
 * Ids are minted at the edges (lib/ids.ts) and enter the engine as arguments.
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A ledger node's id (sortable, unique across sessions). */
export type NodeId = Brand<string, "NodeId">;
/** A session's id. */
export type SessionId = Brand<string, "SessionId">;
/** The account a session belongs to (a user id, or `LOCAL_OWNER`). */
export type OwnerId = Brand<string, "OwnerId">;
/** A count of model tokens (never characters). */
export type Tokens = Brand<number, "Tokens">;

const ID_PATTERN = /^[0-9A-Za-z_-]{1,64}$/;

/** True when `value` has the shape of an id this system could have minted. */
export function isIdShaped(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** Brands a string as a NodeId: the one constructor, used where ids enter the system. */
export function asNodeId(value: string): NodeId {
  return value as NodeId;
}

/** Brands a string as a SessionId. */
export function asSessionId(value: string): SessionId {
  return value as SessionId;
}

/** Brands a number as a token count. */
export function tokens(n: number): Tokens {
  return n as Tokens;
}

/** Brands a user id as the owner of sessions. */
export function asOwnerId(value: string): OwnerId {
  return value as OwnerId;
}

/**
 * The owner in single-user mode (`SPINDLE_AUTH=off`), and of sessions made before accounts
 * existed; the first account adopts them.
 */
export const LOCAL_OWNER = asOwnerId("local");
