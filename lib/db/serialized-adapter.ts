import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";

/** A first-come first-served lock; `run` holds it for one async step. */
class Lock {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with a release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return ready;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

/**
 * better-sqlite3 gives Prisma one connection. Its adapter serialises transactions with a
 * mutex, but a query outside a transaction runs on that same connection at once — inside
 * whatever transaction is open, so a transaction's rollback silently undoes it (a reply's
 * seal racing a refused turn claim was lost that way) and it reads uncommitted rows. This
 * wrapper makes every statement outside a transaction wait for the open one to end. (The
 * better-sqlite3 adapter reports no connection info, so the wrapper reports none either.)
 */
export function serializedAdapter(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      return new SerializedAdapter(await factory.connect());
    },
  };
}

class SerializedAdapter implements SqlDriverAdapter {
  private readonly lock = new Lock();
  readonly provider: SqlDriverAdapter["provider"];
  readonly adapterName: string;

  constructor(private readonly inner: SqlDriverAdapter) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  queryRaw(query: SqlQuery) {
    return this.lock.run(() => this.inner.queryRaw(query));
  }

  executeRaw(query: SqlQuery) {
    return this.lock.run(() => this.inner.executeRaw(query));
  }

  executeScript(script: string) {
    return this.lock.run(() => this.inner.executeScript(script));
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const release = await this.lock.acquire();
    let tx: Transaction;
    try {
      tx = await this.inner.startTransaction(isolationLevel);
    } catch (e) {
      release();
      throw e;
    }
    const end = async (finish: () => Promise<void>) => {
      try {
        await finish();
      } finally {
        release();
      }
    };
    return {
      provider: tx.provider,
      adapterName: tx.adapterName,
      options: tx.options,
      queryRaw: (q) => tx.queryRaw(q),
      executeRaw: (q) => tx.executeRaw(q),
      commit: () => end(() => tx.commit()),
      rollback: () => end(() => tx.rollback()),
      ...savepoints(tx),
    };
  }

  dispose() {
    return this.inner.dispose();
  }
}

/** The savepoint methods a transaction has, bound to it. */
function savepoints(tx: Transaction): Partial<Transaction> {
  const { createSavepoint, rollbackToSavepoint, releaseSavepoint } = tx;
  return {
    ...(createSavepoint ? { createSavepoint: createSavepoint.bind(tx) } : {}),
    ...(rollbackToSavepoint ? { rollbackToSavepoint: rollbackToSavepoint.bind(tx) } : {}),
    ...(releaseSavepoint ? { releaseSavepoint: releaseSavepoint.bind(tx) } : {}),
  };
}
