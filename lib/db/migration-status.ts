import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Database } from "./client";
import { migrationPaths } from "./paths";

export type MigrationState = "up to date" | "pending" | "unknown";

/** Compares the migrations shipped in prisma/ with those the database has applied. */
export async function migrationState(database: Database): Promise<MigrationState> {
  try {
    const dir = path.resolve(migrationPaths(database.url).migrationsDir);
    const shipped = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const rows = await database.db.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    return shipped.every((m) => applied.has(m)) ? "up to date" : "pending";
  } catch {
    return "unknown";
  }
}
