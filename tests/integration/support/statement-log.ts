import type { Database } from "@/lib/db/client";
import { FinalNodes } from "@/lib/store/final-nodes";
import { openTestSessionStore } from "./store-bus";

/** One call that reached the database client: `model.operation`, or `raw: <SQL start>`. */
export interface Statement {
  readonly name: string;
  /** The write transaction it ran in (1 for the first the log saw), null outside any. */
  readonly tx: number | null;
}

const MODELS = new Set(["session", "node", "attachment", "blob"]);

/** `client` logging each operation it runs into `log` (a transaction's client too). */
function logged<T extends object>(client: T, log: Statement[], tx: number | null): T {
  const delegates = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === "string" && MODELS.has(prop) && v !== null && typeof v === "object") {
        if (!delegates.has(prop)) {
          delegates.set(
            prop,
            new Proxy(v, {
              get(model, op, r) {
                const fn: unknown = Reflect.get(model, op, r);
                if (typeof fn !== "function" || typeof op !== "string") return fn;
                return (...args: unknown[]) => {
                  log.push({ name: `${prop}.${op}`, tx });
                  return (fn as (...a: unknown[]) => unknown).apply(model, args);
                };
              },
            }),
          );
        }
        return delegates.get(prop);
      }
      if (typeof v !== "function") return v;
      if (prop === "$queryRaw" || prop === "$executeRaw") {
        return (...args: unknown[]) => {
          const sql = args[0] as { join?: (s: string) => string } | undefined;
          const text = typeof sql?.join === "function" ? sql.join("?") : String(sql);
          log.push({
            name: `raw: ${text.replace(/\s+/g, " ").trim()}`,
            tx,
          });
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (prop === "$transaction") {
        return (fn: (tx: object) => Promise<unknown>, options?: unknown) => {
          const n = log.filter((x) => x.name === "transaction").length + 1;
          log.push({ name: "transaction", tx });
          return (v as (f: unknown, o?: unknown) => Promise<unknown>).call(
            target,
            (client: object) => fn(logged(client, log, n)),
            options,
          );
        };
      }
      return v;
    },
  });
}

/**
 * A SessionStore over `database` that logs every statement it asks of the database client,
 * in order, inside write transactions too (one Prisma operation is one statement, but for
 * the transaction's own BEGIN and COMMIT): for tests of what an operation reads and writes.
 */
export function statementLog(database: Database) {
  const log: Statement[] = [];
  const store = openTestSessionStore({
    database: { ...database, db: logged(database.db, log, null) } as Database,
    finalNodes: new FinalNodes(),
  });
  return { store, log };
}
