import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { EngineError } from "@/lib/engine/errors";
import { asNodeId, tokens } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";
import { createSqliteDatabase, openTestStore, type TestDatabase } from "./support/databases";

/**
 * [R85] On SQLite every statement shares one connection: a statement outside a transaction
 * must never run inside another caller's open transaction, whose rollback would undo it
 * (and whose uncommitted rows it would read).
 */

let test: TestDatabase;
let database: Database;
let store: SessionStore;

beforeAll(async () => {
  test = await createSqliteDatabase();
  ({ database, store } = await openTestStore(test));
});

afterAll(async () => {
  await database.close();
  await test.drop();
});

it("[R85] a seal issued while a turn claim's transaction is open survives its rollback", async () => {
  const session = await store.createSession({ title: "race" });
  const { node: reply } = await store.appendNode({
    sessionId: session.id,
    predecessorId: asNodeId(session.rootId ?? ""),
    kind: "assistant",
    content: "",
    status: "streaming",
    tokenCount: tokens(0),
    advanceHead: false,
    leaseMs: 60_000,
  });
  // A second turn's claim: it takes the session's write lock, finds the live reply and is
  // refused, rolling back. The reply's seal arrives while that transaction is open.
  let seal: Promise<LedgerNode> | undefined;
  let sawUncommitted = false;
  const claim = database.db.$transaction(async (tx) => {
    await tx.session.update({ where: { id: session.id }, data: { title: "claimed" } });
    seal = store.seal(session.id, reply.id, {
      status: "complete",
      content: "the whole reply",
      tokenCount: tokens(3),
    });
    const read = database.db.session
      .findUnique({ where: { id: session.id } })
      .then((row) => (sawUncommitted = row?.title === "claimed"));
    // Give both statements every chance to run inside this transaction.
    await new Promise((r) => setTimeout(r, 50));
    void read;
    throw new EngineError("turn_in_progress");
  });
  await expect(claim).rejects.toMatchObject({ code: "turn_in_progress" });
  const sealed = await seal;
  expect(sealed?.status).toBe("complete");
  const stored = await store.node(session.id, reply.id);
  expect(stored.status).toBe("complete");
  expect(stored.content).toBe("the whole reply");
  expect((await store.getSession(session.id)).title).toBe("race");
  expect(sawUncommitted).toBe(false);
});
