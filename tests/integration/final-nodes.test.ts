import { expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { tokens } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";
import type { SessionStore } from "@/lib/store/session-store";
import { countingStore } from "./support/counting-store";
import { appendNode, appendPairs } from "./support/ledger";
import { describeEachDatabase, useFreshStore } from "./support/databases";

const strip = (nodes: readonly LedgerNode[]) => nodes.map((n) => ({ ...n, reads: [] }));

describeEachDatabase("[R136] spine walks through the final-node cache", (kind) => {
  let database: Database;
  let plain: SessionStore;
  useFreshStore(kind, (env) => ({ database, store: plain } = env));

  it("[R136] a warm walk reads only the node written since, and answers what the database holds", async () => {
    const { store, counts } = countingStore(database);
    const s = await store.createSession({});
    const head = await appendPairs(store, s.id, 15);
    const cold = await store.spine(s.id, head!.id, { reads: false });
    expect(strip(cold)).toEqual(strip(await plain.spine(s.id, head!.id)));

    const next = await appendNode(store, s.id, head!.id, "user");
    counts.raw = 0;
    counts.findMany = 0;
    const warm = await store.spine(s.id, next.id, { reads: false });
    // One by-id read of the new node; the 31 above it come from the cache.
    expect(counts).toMatchObject({ raw: 0, findMany: 1 });
    expect(strip(warm)).toEqual(strip(await plain.spine(s.id, next.id)));

    // The head is read every time (it may have been deleted since); nothing above it.
    counts.findMany = 0;
    await store.spine(s.id, next.id, { reads: false });
    expect(counts).toMatchObject({ raw: 0, findMany: 1 });
  });

  it("[R136] a branch deleted behind this store's back (another instance) is not found", async () => {
    const { store } = countingStore(database);
    const s = await store.createSession({});
    const user = await appendNode(store, s.id, "head", "user");
    const reply = await appendNode(store, s.id, user.id, "assistant");
    await store.spine(s.id, reply.id, { reads: false });
    // Another instance deletes the reply: this store's cache still holds it.
    await plain.removeNodes(s.id, async () => ({ ids: [reply.id], headAfter: user.id }));
    await expect(store.spine(s.id, reply.id, { reads: false })).rejects.toMatchObject({
      code: "node_not_found",
    });
    expect(strip(await store.spine(s.id, user.id, { reads: false }))).toEqual(
      strip(await plain.spine(s.id, user.id)),
    );
  });

  it("[R136] a streaming node is read again every time, and its seal is what is then cached", async () => {
    const { store, finals } = countingStore(database);
    const s = await store.createSession({});
    const user = await appendNode(store, s.id, "head", "user");
    const reply = await appendNode(store, s.id, user.id, "assistant", { status: "streaming" });
    await store.spine(s.id, reply.id, { reads: false });
    expect(finals.get(s.id, reply.id)).toBeUndefined();
    expect(finals.get(s.id, user.id)).toBeDefined();
    await store.seal(s.id, reply.id, {
      status: "complete",
      content: "sealed text",
      tokenCount: tokens(2),
    });
    const spine = await store.spine(s.id, reply.id, { reads: false });
    expect(spine.at(-1)).toMatchObject({ status: "complete", content: "sealed text" });
    expect(finals.get(s.id, reply.id)?.content).toBe("sealed text");
  });

  it("[R136] a deleted branch and a deleted session are forgotten; a foreign head is not found", async () => {
    const { store, finals } = countingStore(database);
    const s = await store.createSession({});
    const user = await appendNode(store, s.id, "head", "user");
    const fork = await appendNode(store, s.id, s.headId!, "user");
    await store.spine(s.id, fork.id, { reads: false });
    expect(finals.get(s.id, fork.id)).toBeDefined();
    await store.removeNodes(s.id, async () => ({ ids: [fork.id], headAfter: user.id }));
    expect(finals.get(s.id, fork.id)).toBeUndefined();
    await expect(store.spine(s.id, fork.id, { reads: false })).rejects.toMatchObject({
      code: "node_not_found",
    });

    const other = await store.createSession({});
    await expect(store.spine(other.id, user.id, { reads: false })).rejects.toMatchObject({
      code: "node_not_found",
    });
    await store.deleteSession(s.id);
    expect(finals.get(s.id, user.id)).toBeUndefined();
  });
});
