import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { AccountGate } from "@/lib/auth/account-gate";
import { PgBus } from "@/lib/events/pg-bus";
import { services } from "@/lib/server/services";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer } from "../support/recording-server";
import { describeEachDatabase, type TestDatabase } from "./support/databases";
import { signUpAs, useApp, type Routes } from "./support/routes";

/**
 * Bans and sign-outs that bite ([R147]): revoking an account's access aborts its running
 * turns (sealed `interrupted`, the provider's request closed) and closes its event streams,
 * here and — on PostgreSQL — on another instance listening on the same event bus.
 */

const PASSWORD = "correct horse battery";
const provider = await startRecordingServer({ models: ["spindle-test-model"] });
afterAll(() => provider.close());

/** Reads an SSE body to its end; resolves with the event names seen. */
async function drain(body: ReadableStream<Uint8Array> | null): Promise<string[]> {
  const names: string[] = [];
  if (!body) return names;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  for (const m of text.matchAll(/^event: (\w+)$/gm)) names.push(m[1] as string);
  return names;
}

describeEachDatabase("[R147] bans and sign-outs bite", (kind) => {
  let routes: Routes;
  let db: TestDatabase;
  let admin: Record<string, string>;
  useApp(
    kind,
    {
      SPINDLE_ALLOW_SIGNUP: "true",
      OPENAI_BASE_URL: provider.url,
      SPINDLE_MODEL: "spindle-test-model",
    },
    (app) => ({ routes, db } = app),
  );

  const signUp = (email: string) => signUpAs(routes, email, PASSWORD);
  const userId = async (email: string) =>
    (await (await services()).database.db.user.findUniqueOrThrow({ where: { email } })).id;

  /** Starts a streaming turn whose model hangs after a few words, and opens the channel. */
  const startWork = async (headers: Record<string, string>) => {
    const created = await routes.call("POST", "/api/sessions", { title: "w" }, { headers });
    const id = created.json["id"] as string;
    const events = await routes.raw("GET", `/api/sessions/${id}/events`, { headers });
    expect(events.status).toBe(200);
    provider.enqueue(behaviours.hang("Thinking about it"));
    const turn = await routes.raw("POST", `/api/sessions/${id}/turns`, {
      headers,
      body: { content: "go on", stream: true },
    });
    expect(turn.status).toBe(200);
    return { id, turn: drain(turn.body), events: drain(events.body) };
  };

  beforeAll(async () => {
    admin = await signUp("admin@example.com");
  });

  it("[R147] disabling an account aborts its running turn and closes its event stream", async () => {
    provider.reset();
    const bob = await signUp("bob@example.com");
    const work = await startWork(bob);
    await provider.waitForChatRequest(1);
    const banned = await routes.call(
      "POST",
      "/api/auth/admin/ban-user",
      { userId: await userId("bob@example.com") },
      { headers: admin },
    );
    expect(banned.status, banned.text).toBe(200);
    // Both streams end (the model would hang forever otherwise).
    const [turnEvents, channelEvents] = await Promise.all([work.turn, work.events]);
    expect(turnEvents.at(-1)).toBe("done");
    expect(channelEvents[0]).toBe("ready");
    const { store } = await services();
    const nodes = await store.nodes(work.id as never);
    const reply = nodes.find((n) => n.kind === "assistant");
    expect(reply?.status).toBe("interrupted");
    // The provider's request was closed by Spindle: nothing is left hanging there (within
    // a second; the model would hold it forever).
    await vi.waitFor(() => expect(provider.hanging()).toBe(0), { timeout: 1000 });
  });

  it("[R147] revoking a key stops what that key started; the browser's work goes on", async () => {
    provider.reset();
    const carol = await signUp("carol@example.com");
    const key = (await routes.call("POST", "/api/keys", { name: "k" }, { headers: carol })).json;
    const keyed = { authorization: `Bearer ${key["key"] as string}` };
    const byKey = await startWork(keyed);
    await provider.waitForChatRequest(1);
    const browserChannel = await routes.raw("GET", `/api/sessions/${byKey.id}/events`, {
      headers: carol,
    });
    const revoked = await routes.call("DELETE", `/api/keys/${key["id"] as string}`, undefined, {
      headers: carol,
    });
    expect(revoked.status).toBe(204);
    await Promise.all([byKey.turn, byKey.events]);
    await vi.waitFor(() => expect(provider.hanging()).toBe(0), { timeout: 1000 });
    // The cookie's channel was not revoked: it is still open.
    const reader = browserChannel.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("event: ready");
    const { gate } = await services();
    expect(gate.count(await userId("carol@example.com"))).toBe(1);
    await reader.cancel();
  });

  it("[R147] a revocation reaches work registered on another instance (the event bus)", async () => {
    if (kind !== "postgresql") return;
    const other = await PgBus.connect(db.url);
    const gate = new AccountGate(other);
    try {
      const dave = await signUp("dave@example.com");
      const daveId = await userId("dave@example.com");
      const work = gate.track({ ownerId: daveId, credential: "session:elsewhere" });
      const aborted = new Promise<void>((resolve) =>
        work.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      expect(dave.cookie).not.toBe("");
      const banned = await routes.call(
        "POST",
        "/api/auth/admin/ban-user",
        { userId: daveId },
        {
          headers: admin,
        },
      );
      expect(banned.status).toBe(200);
      await aborted;
      expect(work.signal.aborted).toBe(true);
    } finally {
      gate.close();
      await other.close();
    }
  });
});
