import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { EngineError } from "../engine/errors";
import type { ApiKeyInfo } from "../engine/types";

/** The owner a valid key acts for. */
export interface KeyOwner {
  readonly userId: string;
  readonly keyId: string;
}

/** Every key starts with this, so a leaked one is recognisable (and scannable). */
export const API_KEY_PREFIX = "spk_";

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

/** `lastUsedAt` is written at most this often per key, not on every request. */
const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Personal API keys for scripts. A key is 32 random bytes; only its SHA-256 is stored (a
 * key has full entropy, so a fast hash is enough — unlike a password). Revoked keys stay
 * listed nowhere and authenticate nothing.
 */
export class ApiKeyStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly newId: () => string,
  ) {}

  /** Creates a key; the only time the key itself is ever returned. */
  async create(userId: string, name: string): Promise<ApiKeyInfo & { key: string }> {
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const row = await this.db.apiKey.create({
      data: {
        id: this.newId(),
        userId,
        name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 6),
        hash: hashOf(key),
        createdAt: this.now(),
      },
    });
    return { ...infoOf(row), key };
  }

  async list(userId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.db.apiKey.findMany({
      where: { userId, revokedAt: null },
      orderBy: { createdAt: "desc" },
    });
    return rows.map(infoOf);
  }

  /** Revokes one of the user's own keys; another user's key is not found. */
  async revoke(userId: string, id: string): Promise<void> {
    const { count } = await this.db.apiKey.updateMany({
      where: { id, userId, revokedAt: null },
      data: { revokedAt: this.now() },
    });
    if (count === 0) throw new EngineError("api_key_not_found");
  }

  /** The owner of a live key whose account is enabled, or null. */
  async verify(key: string): Promise<KeyOwner | null> {
    if (!key.startsWith(API_KEY_PREFIX) || key.length > 128) return null;
    const row = await this.db.apiKey.findUnique({
      where: { hash: hashOf(key) },
      include: { user: { select: { banned: true } } },
    });
    if (!row || row.revokedAt || row.user.banned) return null;
    const now = this.now();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await this.db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
    }
    return { userId: row.userId, keyId: row.id };
  }
}

function infoOf(row: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
