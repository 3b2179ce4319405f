import { spawn } from "node:child_process";
import { expect, it } from "vitest";

import type { SessionStore } from "@/lib/store/session-store";
import { asNodeId } from "@/lib/engine/ids";
import {
  describeEachDatabase,
  openTestStore,
  type TestDatabase,
  useFreshStore,
} from "./support/databases";
import { testDispatcher } from "./support/dispatcher";

describeEachDatabase("[R66] a writer killed mid-stream", (kind) => {
  let test: TestDatabase;
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ test, store } = env));

  /** Runs a slow turn in a separate writer process and SIGKILLs it once text is stored. */
  async function killWriterMidStream(sessionId: string): Promise<string> {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "tests/integration/support/child-writer.ts",
        "stream",
        test.url,
        sessionId,
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const replyId = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /streaming (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`writer exited early (${code}): ${out}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    return replyId;
  }

  it("[R66] leaves the reply interrupted with its partial text after restart; earlier nodes intact", async () => {
    const s = await store.createSession({});
    const { dispatcher } = testDispatcher(store);
    const before = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "warm-up" });
    const earlier = await store.nodes(s.id);

    const replyId = await killWriterMidStream(s.id);
    const orphan = await store.node(s.id, asNodeId(replyId));
    expect(orphan.status).toBe("streaming");
    expect(orphan.content.length).toBeGreaterThan(0);

    // Restart: a new process opens the store. SQLite seals every streaming node (one writer
    // process per file); PostgreSQL seals those whose lease ran out (1 s in the child).
    if (kind === "postgresql") await new Promise((r) => setTimeout(r, 1_200));
    const restarted = await openTestStore(test);
    try {
      expect(await restarted.store.sealOrphans({ everything: kind === "sqlite" })).toBe(1);
      const sealed = await restarted.store.node(s.id, asNodeId(replyId));
      expect(sealed.status).toBe("interrupted");
      expect(sealed.content).toBe(orphan.content);
      const after = await restarted.store.nodes(s.id);
      for (const n of earlier) expect(after.find((x) => x.id === n.id)).toEqual(n);
      // The session is usable again: a new turn is admitted.
      const next = await testDispatcher(restarted.store).dispatcher.runTurn({
        sessionId: s.id,
        mode: "send",
        content: "still there?",
      });
      expect(next.reply.status).toBe("complete");
      expect(before.reply.status).toBe("complete");
    } finally {
      await restarted.database.close();
    }
  }, 60_000);

  it("[R66] a live process seals another's dead stream when it next loads the session", async () => {
    const s = await store.createSession({});
    const replyId = await killWriterMidStream(s.id);
    // The dead writer's lease (1 s) runs out; this process never restarted.
    await new Promise((r) => setTimeout(r, 1_200));
    const { dispatcher } = testDispatcher(store);
    const next = await dispatcher.runTurn({ sessionId: s.id, mode: "send", content: "anyone?" });
    expect(next.reply.status).toBe("complete");
    const sealed = await store.node(s.id, asNodeId(replyId));
    expect(sealed.status).toBe("interrupted");
    expect(sealed.content.length).toBeGreaterThan(0);
  }, 60_000);
});
