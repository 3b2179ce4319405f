import { EngineError } from "../engine/errors";
import { asSessionId, isIdShaped, type SessionId } from "../engine/ids";

/**
 * A position in the session list's order (`updatedAt` desc, then `id` desc): the last row of
 * the previous page. It carries the row's values rather than naming the row, so paging goes
 * on when that session is deleted or gets a new turn between two pages.
 */
export interface ListCursor {
  readonly updatedAt: Date;
  readonly id: SessionId;
}

/** `<updatedAt in ms, base 36>.<id>`: opaque to clients, URL-safe, short. */
export function encodeListCursor(cursor: { readonly updatedAt: string; readonly id: string }) {
  return `${Date.parse(cursor.updatedAt).toString(36)}.${cursor.id}`;
}

/** @throws EngineError `invalid_request` for anything {@link encodeListCursor} did not make. */
export function decodeListCursor(raw: string): ListCursor {
  const dot = raw.indexOf(".");
  const ms = dot > 0 ? Number.parseInt(raw.slice(0, dot), 36) : Number.NaN;
  const id = raw.slice(dot + 1);
  const at = new Date(ms);
  if (
    !/^[0-9a-z]{1,11}$/.test(raw.slice(0, dot)) ||
    Number.isNaN(at.getTime()) ||
    !isIdShaped(id)
  ) {
    throw new EngineError("invalid_request", "Unknown cursor.");
  }
  return { updatedAt: at, id: asSessionId(id) };
}
