import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";

/**
 * A random secret kept in the database, made on first use: every instance sharing the
 * database signs and checks cookies with the same one, and nobody has to set one to start.
 * A racing first start is settled by the primary key: whoever inserts second reads the
 * winner's value.
 */
export async function serverSecret(db: Db, key: string): Promise<string> {
  const existing = await db.serverSetting.findUnique({ where: { key } });
  if (existing) return existing.value;
  try {
    await db.serverSetting.create({ data: { key, value: randomBytes(32).toString("base64url") } });
  } catch {
    // Another instance created it first.
  }
  const row = await db.serverSetting.findUniqueOrThrow({ where: { key } });
  return row.value;
}
