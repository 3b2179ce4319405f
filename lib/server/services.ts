import { config, type Config } from "../config/env";
import { openDatabase, type Database } from "../db/client";
import { newNodeId, newSessionId } from "../ids";
import { SessionStore } from "../store/session-store";

/** Everything a request handler needs, built once per server process. */
export interface Services {
  readonly config: Config;
  readonly database: Database;
  readonly store: SessionStore;
}

// Cached on globalThis so Next's dev-mode module reloads reuse one connection pool.
const KEY = Symbol.for("spindle.services");
type Holder = { [KEY]?: Promise<Services> };

async function build(): Promise<Services> {
  const cfg = config();
  const database = await openDatabase(cfg.databaseUrl);
  const store = new SessionStore({
    database,
    now: () => new Date(),
    newNodeId: () => newNodeId(),
    newSessionId: () => newSessionId(),
  });
  // A SQLite file has one writer process: at its start no reply can still be streaming.
  // On PostgreSQL other instances may be streaming, so only expired leases are sealed.
  await store.sealOrphans({ everything: database.kind === "sqlite" });
  return { config: cfg, database, store };
}

export function services(): Promise<Services> {
  const holder = globalThis as Holder;
  holder[KEY] ??= build().catch((e: unknown) => {
    delete holder[KEY];
    throw e;
  });
  return holder[KEY];
}
