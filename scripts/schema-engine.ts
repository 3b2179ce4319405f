// Adapted from the stack proof (shared/reference/scripts/schema-engine.ts).
// Drives @prisma/schema-engine-wasm with a Prisma driver adapter (no native schema-engine binary).
import { inspect } from "node:util";
import { randomUUID } from "node:crypto";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { readFile, readdir, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { SchemaEngine, MigrationList } from "@prisma/schema-engine-wasm";
import { schemaEngineFilters } from "../lib/db/external-tables";

const require = createRequire(import.meta.url);

let engineClass: typeof SchemaEngine | undefined;
async function loadEngineClass(): Promise<typeof SchemaEngine> {
  if (engineClass) return engineClass;
  // The package entry `import`s the .wasm as an ES module (needs --experimental-wasm-modules on Node 20),
  // so instantiate it by hand from the wasm-bindgen glue module.
  const glue = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as any;
  // Inside a Next.js (Turbopack) server bundle require.resolve() yields a module id (next start)
  // or a virtual "[project]/..." path (next dev), so fall back to <cwd>/node_modules.
  let wasmPath = path.join(
    process.cwd(),
    "node_modules/@prisma/schema-engine-wasm/schema_engine_bg.wasm",
  );
  try {
    const gluePath: unknown = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const candidate =
      typeof gluePath === "string"
        ? path.join(path.dirname(gluePath), "schema_engine_bg.wasm")
        : "";
    if (candidate && path.isAbsolute(candidate) && existsSync(candidate)) wasmPath = candidate;
  } catch {
    // Not resolvable as a path (bundled): keep the node_modules fallback above.
  }
  const mod = new WebAssembly.Module(await readFile(wasmPath));
  const instance = new WebAssembly.Instance(mod, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  engineClass = glue.SchemaEngine as typeof SchemaEngine;
  return engineClass;
}

/**
 * Postgres: the engine's schema describer selects pg_catalog columns of type "char" (OID 18), which
 * @prisma/adapter-pg 7.10.x rejects ("Column type 'char' could not be deserialized"). Report them as text.
 */
class CharSafePool extends pg.Pool {
  override async query(...args: any[]) {
    const res: any = await (super.query as any)(...args);
    for (const f of res?.fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25;
    return res;
  }
}

export type ClosableFactory = SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> };

/** The engine never disposes its main connection; remember it so the script can exit promptly. */
function closable(f: SqlMigrationAwareDriverAdapterFactory): ClosableFactory {
  const open: { dispose(): Promise<void> }[] = [];
  return {
    provider: f.provider,
    adapterName: f.adapterName,
    connect: async () => {
      const a = await f.connect();
      open.push(a);
      return a;
    },
    connectToShadowDb: () => f.connectToShadowDb(),
    close: async () => {
      for (const a of open.splice(0)) await a.dispose().catch(() => {});
    },
  };
}

export function migrationFactory(url: string): ClosableFactory {
  return closable(rawMigrationFactory(url));
}

/**
 * PrismaPg's `executeScript` splits a migration on every ";", inside comments and
 * dollar-quoted function bodies too (a trigger function cannot be written without one). Send
 * the script whole, as `prisma migrate` does: the simple query protocol runs a
 * multi-statement script as one implicit transaction.
 */
function wholeScripts<A extends object>(adapter: A): A {
  return new Proxy(adapter, {
    get(target, prop) {
      if (prop === "executeScript")
        return async (script: string) => {
          try {
            await (target as any).client.query(script);
          } catch (e) {
            (target as any).onError(e);
          }
        };
      const v = (target as any)[prop];
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/**
 * Adapter factory for migrations, with shadow-DB fixes:
 *  - SQLite: the wasm engine replays migration scripts on the shadow DB via `executeRaw(script)`, and
 *    better-sqlite3's prepare() rejects multi-statement SQL ("contains more than one statement").
 *    Parameterless executeRaw on the throwaway (in-memory) shadow connection goes to executeScript().
 *  - Postgres: PrismaPg.connectToShadowDb() (7.10.x) drops the shadow DB *before* closing its pool
 *    ("database ... is being accessed by other users", DB left behind), and with a connectionString
 *    config pg ignores the `database` override, so the "shadow" would be the MAIN database.
 *    We create/drop the shadow DB ourselves, using discrete connection fields (needs CREATEDB).
 */
function rawMigrationFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const u = new URL(url);
    const cfg = {
      host: u.hostname,
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
      database: decodeURIComponent(u.pathname.slice(1)),
    };
    const adapterFor = (database: string) =>
      new PrismaPg(new CharSafePool({ ...cfg, database, max: 2, allowExitOnIdle: true }), {
        disposeExternalPool: true,
      });
    const main = adapterFor(cfg.database);
    return {
      provider: main.provider,
      adapterName: main.adapterName,
      connect: async () => wholeScripts(await main.connect()),
      connectToShadowDb: async () => {
        const admin = await adapterFor(cfg.database).connect();
        const name = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
        await admin.executeScript(`CREATE DATABASE "${name}"`);
        const shadow = wholeScripts(await adapterFor(name).connect());
        return new Proxy(shadow, {
          get(target, prop) {
            if (prop === "dispose")
              return async () => {
                await target.dispose();
                await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
                await admin.dispose();
              };
            const v = (target as any)[prop];
            return typeof v === "function" ? v.bind(target) : v;
          },
        });
      },
    };
  }
  const main = new PrismaBetterSqlite3({ url });
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: () => main.connect(),
    connectToShadowDb: async () => {
      const shadow = await main.connectToShadowDb(); // in-memory
      return new Proxy(shadow, {
        get(target, prop) {
          if (prop === "executeRaw") {
            return async (q: { sql: string; args: unknown[] }) => {
              if (q.args.length === 0) {
                await target.executeScript(q.sql);
                return 0;
              }
              return target.executeRaw(q as any);
            };
          }
          const v = (target as any)[prop];
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
    },
  };
}

export async function openEngine(
  schemaPath: string,
  factory: SqlMigrationAwareDriverAdapterFactory,
  log = false,
) {
  const Engine = await loadEngineClass();
  const schema = await readFile(schemaPath, "utf8");
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  try {
    const raw = await Engine.new(
      { datamodels: [[schemaPath, schema]] },
      (msg: string) => {
        if (log) console.error("[se]", msg);
      },
      bound,
    );
    // Surface JS-side driver errors ("External error id#N") hidden in the adapter's error registry.
    const engine = new Proxy(raw, {
      get(target, prop) {
        const v = (target as any)[prop];
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          const res = v.apply(target, args);
          if (!(res instanceof Promise)) return res;
          return res.catch((e: any) => {
            const reg = (bound as any).errorRegistry?.registeredErrors ?? [];
            const ext = reg
              .filter(Boolean)
              .map((r: any) => inspect(r.error, { depth: 4 }))
              .join("; ");
            if (ext) e.message += `\n  driver adapter error(s): ${ext}`;
            throw e;
          });
        };
      },
    });
    return { engine, schema, bound };
  } catch (e) {
    throw (bound as any).errorRegistry?.lookupError?.(e)?.error ?? e;
  }
}

export async function loadMigrations(dir: string, provider: string): Promise<MigrationList> {
  const abs = path.resolve(dir);
  await mkdir(abs, { recursive: true });
  const entries = (await readdir(abs, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const migrationDirectories = [];
  for (const name of entries) {
    const file = path.join(abs, name, "migration.sql");
    let content: { tag: "ok"; value: string } | { tag: "error"; value: string };
    try {
      content = { tag: "ok", value: await readFile(file, "utf8") };
    } catch (e) {
      content = { tag: "error", value: String(e) };
    }
    migrationDirectories.push({ path: name, migrationFile: { path: "migration.sql", content } });
  }
  const lockPath = path.join(abs, "migration_lock.toml");
  let lock: string;
  try {
    lock = await readFile(lockPath, "utf8");
  } catch {
    lock = `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider === "postgres" ? "postgresql" : provider}"\n`;
    await writeFile(lockPath, lock);
  }
  return {
    baseDir: abs,
    lockfile: { path: "migration_lock.toml", content: lock },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

function timestamp() {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

async function writeMigration(migrationsDir: string, dirName: string, sql: string) {
  const dir = path.join(migrationsDir, dirName);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), sql);
  return dir;
}

async function diffMigrationsToSchema(
  engine: SchemaEngine,
  list: MigrationList,
  schemaPath: string,
  schema: string,
  filters: ReturnType<typeof schemaEngineFilters>,
) {
  const r = await engine.diff({
    from: { tag: "migrations", ...list },
    to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
    script: true,
    exitCode: true,
    filters,
  });
  return r.exitCode === 2 && r.stdout ? r.stdout : null; // exitCode 0 = no difference
}

/** Like `prisma migrate diff --from-migrations <dir> --to-schema <schema> --script` + writing a new migration dir.
 *  Touches only the shadow DB (SQLite: in-memory; Postgres: a temporary database created and dropped by PrismaPg). */
export async function createMigration(opts: {
  schemaPath: string;
  migrationsDir: string;
  name: string;
  factory: SqlMigrationAwareDriverAdapterFactory;
}) {
  const { engine, schema } = await openEngine(opts.schemaPath, opts.factory);
  const filters = schemaEngineFilters(opts.factory.provider);
  try {
    const list = await loadMigrations(opts.migrationsDir, opts.factory.provider);
    const sql = await diffMigrationsToSchema(engine, list, opts.schemaPath, schema, filters);
    return sql
      ? await writeMigration(opts.migrationsDir, `${timestamp()}_${opts.name}`, sql)
      : null;
  } finally {
    engine.free();
    await (opts.factory as Partial<ClosableFactory>).close?.();
  }
}

/**
 * The drift check: the SQL the schema needs beyond what the migrations build, or null when
 * they agree (what `create` would write). Touches only the shadow database.
 */
export async function schemaDrift(opts: {
  schemaPath: string;
  migrationsDir: string;
  factory: SqlMigrationAwareDriverAdapterFactory;
}): Promise<string | null> {
  const { engine, schema } = await openEngine(opts.schemaPath, opts.factory);
  const filters = schemaEngineFilters(opts.factory.provider);
  try {
    const list = await loadMigrations(opts.migrationsDir, opts.factory.provider);
    return await diffMigrationsToSchema(engine, list, opts.schemaPath, schema, filters);
  } finally {
    engine.free();
    await (opts.factory as Partial<ClosableFactory>).close?.();
  }
}

/** Like `prisma migrate dev --name NAME`: drift check on the dev DB, apply pending, create new migration, apply it. */
export async function migrateDev(opts: {
  schemaPath: string;
  migrationsDir: string;
  name: string;
  factory: SqlMigrationAwareDriverAdapterFactory;
}) {
  const { engine, schema } = await openEngine(opts.schemaPath, opts.factory);
  const filters = schemaEngineFilters(opts.factory.provider);
  try {
    let list = await loadMigrations(opts.migrationsDir, opts.factory.provider);
    // wasm engine + adapter: devDiagnostic/diagnoseMigrationHistory fail with P1014 when _prisma_migrations
    // does not exist yet; applyMigrations with an empty list just creates that table.
    await engine.applyMigrations({
      migrationsList: { ...list, migrationDirectories: [] },
      filters,
    });
    const diag = await engine.devDiagnostic({ migrationsList: list, filters });
    if (diag.action.tag === "reset")
      throw new Error(`dev database needs a reset: ${diag.action.reason}`);
    const applied = (await engine.applyMigrations({ migrationsList: list, filters }))
      .appliedMigrationNames;
    const sql = await diffMigrationsToSchema(engine, list, opts.schemaPath, schema, filters);
    let created: string | null = null;
    if (sql) {
      created = await writeMigration(opts.migrationsDir, `${timestamp()}_${opts.name}`, sql);
      list = await loadMigrations(opts.migrationsDir, opts.factory.provider);
      applied.push(
        ...(await engine.applyMigrations({ migrationsList: list, filters })).appliedMigrationNames,
      );
    }
    return { created, applied };
  } finally {
    engine.free();
    await (opts.factory as Partial<ClosableFactory>).close?.();
  }
}

/** Like `prisma migrate status`. */
export async function status(opts: {
  schemaPath: string;
  migrationsDir: string;
  factory: SqlMigrationAwareDriverAdapterFactory;
}) {
  const { engine } = await openEngine(opts.schemaPath, opts.factory);
  const filters = schemaEngineFilters(opts.factory.provider);
  try {
    const list = await loadMigrations(opts.migrationsDir, opts.factory.provider);
    await engine.applyMigrations({
      migrationsList: { ...list, migrationDirectories: [] },
      filters,
    });
    return await engine.diagnoseMigrationHistory({
      migrationsList: list,
      optInToShadowDatabase: false,
      filters,
    });
  } finally {
    engine.free();
    await (opts.factory as Partial<ClosableFactory>).close?.();
  }
}

/** Like `prisma migrate deploy`. */
export async function applyMigrations(opts: {
  schemaPath: string;
  migrationsDir: string;
  factory: SqlMigrationAwareDriverAdapterFactory;
}) {
  const { engine } = await openEngine(opts.schemaPath, opts.factory);
  const filters = schemaEngineFilters(opts.factory.provider);
  try {
    const list = await loadMigrations(opts.migrationsDir, opts.factory.provider);
    return await engine.applyMigrations({ migrationsList: list, filters });
  } finally {
    engine.free();
    await (opts.factory as Partial<ClosableFactory>).close?.();
  }
}

/** Like `prisma migrate diff --from-empty --to-schema <schema> --script`: needs no database. */
export async function diffFromEmpty(opts: {
  schemaPath: string;
  factory: SqlMigrationAwareDriverAdapterFactory;
}) {
  const { engine, schema } = await openEngine(opts.schemaPath, opts.factory);
  const filters = schemaEngineFilters(opts.factory.provider);
  try {
    const r = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: opts.schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters,
    });
    return r.stdout;
  } finally {
    engine.free();
    await (opts.factory as Partial<ClosableFactory>).close?.();
  }
}
