import { Compactor } from "../compaction/compactor";
import { config, resetConfig, type Config } from "../config/env";
import { openDatabase, type Database } from "../db/client";
import { claimSqliteFile } from "../db/single-process";
import { Dispatcher } from "../dispatcher/dispatcher";
import { AccountGate } from "../auth/account-gate";
import { Admission } from "../http/admission";
import { LocalBus } from "../events/local-bus";
import { PgBus } from "../events/pg-bus";
import type { EventBus } from "../events/session-event";
import { newNodeId, newSessionId } from "../ids";
import { createProviders, type Providers } from "../llm/provider-factory";
import { countTokens } from "../llm/tokens";
import { createPdfReader } from "../files/pdf-reader";
import { openSessionStore, type SessionStore } from "../store/session-store";
import { ApiKeyStore } from "../store/api-key-store";
import { SearchStore } from "../store/search-store";
import { serverSecret } from "../store/server-secret";
import { createAccounts, type Accounts } from "../auth/accounts";
import type { Actor } from "../auth/actor";
import type { AuthenticateDeps } from "../auth/authenticate";
import { SignInThrottle } from "../auth/throttle";
import { Workspace } from "../dispatcher/workspace";
import { AgentLoops } from "../dispatcher/agent-loops";
import { SessionTitler } from "../dispatcher/session-titler";
import { AuditDesk } from "../dispatcher/audit-desk";
import { SummaryAuditor } from "../audit/summary-auditor";
import { AuditStore } from "../store/audit-store";

/** Everything a request handler needs, built once per server process. */
export interface Services {
  readonly config: Config;
  readonly database: Database;
  readonly store: SessionStore;
  readonly bus: EventBus;
  readonly providers: Providers;
  readonly compactor: Compactor;
  readonly dispatcher: Dispatcher;
  readonly titler: SessionTitler;
  /** Gives up this process's claim on a SQLite file (on close). */
  readonly release: () => Promise<void>;
  readonly accounts: Accounts;
  readonly keys: ApiKeyStore;
  readonly throttle: SignInThrottle;
  readonly authDeps: AuthenticateDeps;
  /** Running turns and open streams by credential, so a revocation stops them ([R147]). */
  readonly gate: AccountGate;
  /** What each account may hold at once on this instance ([R148]). */
  readonly admission: Admission;
  /** The dispatcher as one account sees it (the ownership guard). */
  workspaceFor(actor: Actor): Workspace;
}

// Cached on globalThis so Next's dev-mode module reloads reuse one connection pool.
const KEY = Symbol.for("spindle.services");
type Holder = { [KEY]?: Promise<Services> };

async function build(): Promise<Services> {
  const cfg = config();
  // Claimed before anything is sealed: the "seal everything at start" below is only right
  // while this is the file's one server process.
  const release =
    cfg.databaseKind === "sqlite" ? await claimSqliteFile(cfg.databaseUrl) : async () => {};
  try {
    return await assemble(cfg, release);
  } catch (e) {
    await release();
    throw e;
  }
}

async function assemble(cfg: Config, release: () => Promise<void>): Promise<Services> {
  const database = await openDatabase(cfg.databaseUrl);
  const bus: EventBus =
    database.kind === "postgresql" ? await PgBus.connect(cfg.databaseUrl) : new LocalBus();
  // The store announces every committed write on the bus itself (docs/architecture.md).
  const store = openSessionStore({
    database,
    events: bus,
    now: () => new Date(),
    newNodeId: () => newNodeId(),
    newSessionId: () => newSessionId(),
  });
  // A SQLite file has one writer process: at its start no reply can still be streaming.
  // On PostgreSQL other instances may be streaming, so only expired leases are sealed.
  await store.sealOrphans({ everything: database.kind === "sqlite" });
  // An import a dead process left half-written (another instance's may still be running:
  // only those idle for an hour go).
  await store.removeAbandonedImports(database.kind === "sqlite" ? 0 : 60 * 60_000);
  const providers = createProviders(cfg);
  const count = (text: string, model?: string) => countTokens(text, model);
  const loops = new AgentLoops();
  const compactor = new Compactor({
    store,
    bus,
    providers,
    isBusy: (id) => loops.has(id),
    count,
    serverWindow: cfg.contextWindow,
    serverKeepRecentTokens: cfg.keepRecentTokens,
  });
  const titler = new SessionTitler({ store, providers });
  // One reader for uploads and imports: it reads one PDF at a time (R278).
  const pdf = { read: createPdfReader(cfg.pdf), maxTextChars: cfg.maxAttachmentBytes };
  const dispatcher = new Dispatcher({
    store,
    bus,
    providers,
    config: cfg,
    count,
    compaction: compactor,
    loops,
    titler,
    pdf,
  });
  const accounts = createAccounts({
    database,
    store,
    config: cfg,
    secret: cfg.authSecret ?? (await serverSecret(database.db, "auth-secret")),
  });
  const keys = new ApiKeyStore(
    database.db,
    () => new Date(),
    () => newNodeId(),
  );
  const authDeps: AuthenticateDeps = {
    config: cfg,
    accounts,
    keys,
    findUser: (id) =>
      database.db.user.findUnique({
        where: { id },
        select: { id: true, name: true, email: true, role: true, banned: true },
      }),
  };
  const audits = new AuditStore(database.db);
  const auditDesk = new AuditDesk({
    auditor: new SummaryAuditor({
      store,
      audits,
      provider: providers.chat,
      newId: () => newNodeId(),
      now: () => new Date(),
    }),
    audits,
    modelOf: (session) => dispatcher.modelOf(session),
    judgeModel: providers.summaryModel,
    modelAudits: providers.describe().kind !== "offline",
    serverWindow: cfg.contextWindow,
  });
  const workspaceDeps = {
    dispatcher,
    store,
    search: new SearchStore(database),
    compactor,
    bus,
    newNodeId: () => newNodeId(),
    now: () => new Date(),
    count: (text: string) => count(text),
    modelChoice: providers.describe().kind !== "offline",
    importLimits: { maxNodes: cfg.maxImportNodes, count: (text: string) => count(text), pdf },
    importSlots: { active: 0, max: cfg.maxImports },
    audits: auditDesk,
  };
  return {
    config: cfg,
    database,
    store,
    bus,
    providers,
    compactor,
    dispatcher,
    titler,
    release,
    accounts,
    keys,
    throttle: new SignInThrottle(),
    authDeps,
    gate: new AccountGate(bus),
    admission: new Admission({
      event_streams: cfg.perAccount.eventStreams,
      imports: cfg.perAccount.imports,
      heavy_reads: cfg.perAccount.heavyReads,
    }),
    workspaceFor: (actor) => new Workspace(workspaceDeps, actor),
  };
}

/**
 * Closes the database and the event bus and forgets the services (and the parsed
 * configuration), so the next call builds them anew from the environment: graceful
 * shutdown, and test suites that run one server after another in a process.
 */
export async function closeServices(): Promise<void> {
  const holder = globalThis as Holder;
  const built = holder[KEY];
  delete holder[KEY];
  resetConfig();
  if (!built) return;
  const s = await built.catch(() => null);
  // A title still being written needs the database for its last write.
  await s?.titler.idle();
  s?.gate.close();
  await s?.bus.close();
  await s?.database.close();
  await s?.release();
}

export function services(): Promise<Services> {
  const holder = globalThis as Holder;
  holder[KEY] ??= build().catch((e: unknown) => {
    delete holder[KEY];
    throw e;
  });
  return holder[KEY];
}
