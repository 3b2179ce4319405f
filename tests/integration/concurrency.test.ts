import { spawn } from "node:child_process";
import { expect, it } from "vitest";

import type { SessionStore } from "@/lib/store/session-store";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { describeEachDatabase, type TestDatabase, useFreshStore } from "./support/databases";

const CHILD = "tests/integration/support/child-writer.ts";

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`writer exited ${code}`)),
    );
  });
}

describeEachDatabase("[R65] two writer processes on one session", (kind) => {
  let test: TestDatabase;
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ test, store } = env));

  it("[R63][R65] 2 writers × 25 appends at HEAD serialise into 50 nodes of one valid chain", async () => {
    const s = await store.createSession({});
    await Promise.all([
      run(["append", test.url, s.id, "25"]),
      run(["append", test.url, s.id, "25"]),
    ]);
    const nodes = await store.nodes(s.id);
    const users = nodes.filter((n) => n.kind === "user");
    expect(users).toHaveLength(50);
    const ids = new Set<NodeId>(nodes.map((n) => n.id));
    for (const n of nodes) if (n.predecessorId) expect(ids.has(n.predecessorId)).toBe(true);
    // Every append read HEAD under the write lock, so the 50 form one chain with no forks.
    const session = await store.getSession(s.id);
    const spine = await store.spine(s.id, asNodeId(session.headId ?? ""));
    expect(spine).toHaveLength(51);
    const hasChild = new Set(nodes.map((n) => n.predecessorId));
    expect(hasChild.has(session.headId)).toBe(false);
    expect(new Set(nodes.map((n) => n.seq)).size).toBe(51);
  }, 120_000);
});
