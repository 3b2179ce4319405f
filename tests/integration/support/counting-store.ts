import type { Database } from "@/lib/db/client";
import { FinalNodes } from "@/lib/store/final-nodes";
import { openTestSessionStore } from "./store-bus";

/** Calls that reached the database through a {@link countingStore}. */
export interface QueryCounts {
  /** `$queryRaw` statements (the recursive spine walks). */
  raw: number;
  /** `node.findMany` reads. */
  findMany: number;
  /** Interactive transactions: every write takes one. */
  transactions: number;
  /** The text of each `$queryRaw` statement, in order. */
  rawText: string[];
}

/** Wraps `fn` (a method of `target`) to count its calls. */
function counted(target: object, fn: unknown, count: () => void): unknown {
  if (typeof fn !== "function") return fn;
  return (...args: unknown[]) => {
    count();
    return (fn as (...a: unknown[]) => unknown).apply(target, args);
  };
}

/**
 * A SessionStore over `database` whose reads and transactions are counted, with its own
 * final-node cache: for tests of what an operation asks of the database.
 */
export function countingStore(database: Database) {
  const counts: QueryCounts = { raw: 0, findMany: 0, transactions: 0, rawText: [] };
  const node = new Proxy(database.db.node, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      return prop === "findMany" ? counted(target, v, () => (counts.findMany += 1)) : v;
    },
  });
  const db = new Proxy(database.db, {
    get(target, prop, receiver) {
      if (prop === "node") return node;
      const v: unknown = Reflect.get(target, prop, receiver);
      if (prop === "$queryRaw") {
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          counts.raw += 1;
          const text = args[0] as { join?: (s: string) => string } | undefined;
          counts.rawText.push(typeof text?.join === "function" ? text.join("?") : String(text));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (prop === "$transaction") return counted(target, v, () => (counts.transactions += 1));
      return v;
    },
  });
  const finals = new FinalNodes();
  const store = openTestSessionStore({
    database: { ...database, db } as Database,
    finalNodes: finals,
  });
  return { store, counts, finals };
}
