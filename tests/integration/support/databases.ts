import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { applyMigrations, migrationFactory } from "@/scripts/schema-engine";
import { openDatabase, type Database } from "@/lib/db/client";
import { migrationPaths } from "@/lib/db/paths";
import type { SessionStore } from "@/lib/store/session-store";
import { openTestSessionStore } from "./store-bus";

/** The PostgreSQL server the integration suite uses (the machine's local one by default). */
export const PG_ADMIN_URL =
  process.env["SPINDLE_TEST_PG_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  readonly kind: "sqlite" | "postgresql";
  readonly url: string;
  /** Removes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

async function migrate(url: string): Promise<void> {
  const { schemaPath, migrationsDir } = migrationPaths(url);
  await applyMigrations({ schemaPath, migrationsDir, factory: migrationFactory(url) });
}

export async function createSqliteDatabase(migrated = true): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "spindle-test-"));
  const url = `file:${path.join(dir, "test.db")}`;
  if (migrated) await migrate(url);
  return { kind: "sqlite", url, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function createPostgresDatabase(migrated = true): Promise<TestDatabase> {
  const name = `spindle_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(PG_ADMIN_URL, name);
  if (migrated) await migrate(url);
  return {
    kind: "postgresql",
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const pgUp = await postgresReachable();
if (!pgUp) {
  if (process.env["CI"] === "true") {
    throw new Error(`PostgreSQL is required in CI but ${PG_ADMIN_URL} does not answer.`);
  }
  console.warn(
    `[spindle tests] PostgreSQL at ${PG_ADMIN_URL} does not answer: its suites are SKIPPED.`,
  );
}

export const DATABASE_KINDS = [
  { kind: "sqlite" as const, create: createSqliteDatabase, enabled: true },
  { kind: "postgresql" as const, create: createPostgresDatabase, enabled: pgUp },
];

/**
 * Declares a suite once per database kind: SQLite always, PostgreSQL when it answers (and
 * mandatorily in CI, where an unreachable server fails the run above).
 */
export function describeEachDatabase(name: string, body: (kind: "sqlite" | "postgresql") => void) {
  for (const { kind, enabled } of DATABASE_KINDS) {
    (enabled ? describe : describe.skip)(`${name} [${kind}]`, () => body(kind));
  }
}

/** A fresh database with every migration applied (`migrated: false`: none, not even the table). */
export async function createDatabase(
  kind: "sqlite" | "postgresql",
  migrated = true,
): Promise<TestDatabase> {
  return kind === "sqlite" ? createSqliteDatabase(migrated) : createPostgresDatabase(migrated);
}

/** A SessionStore over a database, on the real clock (leases expire in real time). */
export async function openTestStore(test: TestDatabase) {
  const database: Database = await openDatabase(test.url);
  const store = openTestSessionStore({ database });
  return { database, store };
}

export interface FreshStore {
  readonly test: TestDatabase;
  readonly database: Database;
  readonly store: SessionStore;
}

/**
 * A fresh database and SessionStore for one suite: created before its tests, closed and
 * dropped after them. `assign` hands them to the suite's variables.
 */
export function useFreshStore(
  kind: "sqlite" | "postgresql",
  assign: (env: FreshStore) => void,
): void {
  let env: FreshStore | undefined;
  beforeAll(async () => {
    const test = await createDatabase(kind);
    env = { test, ...(await openTestStore(test)) };
    assign(env);
  });
  afterAll(async () => {
    await env?.database.close();
    await env?.test.drop();
  });
}
