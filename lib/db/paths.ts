import { mkdirSync } from "node:fs";
import path from "node:path";
import { databaseKindOf } from "../config/env";

/** The schema and migrations folder for a database URL's provider. */
export function migrationPaths(url: string): { schemaPath: string; migrationsDir: string } {
  return databaseKindOf(url) === "postgresql"
    ? { schemaPath: "prisma/postgres/schema.prisma", migrationsDir: "prisma/postgres/migrations" }
    : { schemaPath: "prisma/schema.prisma", migrationsDir: "prisma/migrations" };
}

/** The filesystem path of a `file:` URL, resolved against the working directory. */
export function sqliteFilePath(url: string): string {
  return path.resolve(url.replace(/^file:/, ""));
}

/** SQLite creates the file but not its folder: make `./data/` on first start. */
export function ensureSqliteDirectory(url: string): void {
  if (databaseKindOf(url) !== "sqlite") return;
  const file = url.replace(/^file:/, "");
  if (file === ":memory:") return;
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}
