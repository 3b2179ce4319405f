import { Compactor } from "../compaction/compactor";
import { config, type Config } from "../config/env";
import { openDatabase, type Database } from "../db/client";
import { Dispatcher } from "../dispatcher/dispatcher";
import { LocalBus } from "../events/local-bus";
import { PgBus } from "../events/pg-bus";
import type { EventBus } from "../events/session-event";
import { newNodeId, newSessionId } from "../ids";
import { createProviders, type Providers } from "../llm/provider-factory";
import { countTokens } from "../llm/tokens";
import { SessionStore } from "../store/session-store";

/** Everything a request handler needs, built once per server process. */
export interface Services {
  readonly config: Config;
  readonly database: Database;
  readonly store: SessionStore;
  readonly bus: EventBus;
  readonly providers: Providers;
  readonly compactor: Compactor;
  readonly dispatcher: Dispatcher;
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
  const bus: EventBus =
    database.kind === "postgresql" ? await PgBus.connect(cfg.databaseUrl) : new LocalBus();
  const providers = createProviders(cfg);
  const count = (text: string, model?: string) => countTokens(text, model);
  const compactor = new Compactor({
    store,
    bus,
    providers,
    count,
    serverWindow: cfg.contextWindow,
    serverKeepRecentTokens: cfg.keepRecentTokens,
  });
  const dispatcher = new Dispatcher({
    store,
    bus,
    providers,
    config: cfg,
    count,
    compaction: compactor,
  });
  return { config: cfg, database, store, bus, providers, compactor, dispatcher };
}

export function services(): Promise<Services> {
  const holder = globalThis as Holder;
  holder[KEY] ??= build().catch((e: unknown) => {
    delete holder[KEY];
    throw e;
  });
  return holder[KEY];
}
