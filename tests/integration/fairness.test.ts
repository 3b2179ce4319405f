import { beforeAll, expect, it } from "vitest";
import { services } from "@/lib/server/services";
import { describeEachDatabase } from "./support/databases";
import { signUpAs, useApp, type Routes } from "./support/routes";

/**
 * Fairness between accounts ([R148]): one account flooding event streams, imports or heavy
 * reads is refused past its own caps (429 with Retry-After) while another account's
 * requests are admitted. Asserted on admission, never on time.
 */

const PASSWORD = "correct horse battery";

describeEachDatabase("[R148] fairness between accounts", (kind) => {
  let routes: Routes;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let aliceSession: string;
  let bobSession: string;
  useApp(
    kind,
    {
      SPINDLE_ALLOW_SIGNUP: "true",
      SPINDLE_MAX_STREAMS_PER_ACCOUNT: "3",
      SPINDLE_MAX_HEAVY_READS_PER_ACCOUNT: "1",
      SPINDLE_HEAVY_READ_NODES: "1",
    },
    (app) => ({ routes } = app),
  );

  const signUp = (email: string) => signUpAs(routes, email, PASSWORD);
  const sessionWithTurn = async (headers: Record<string, string>) => {
    const created = await routes.call("POST", "/api/sessions", { title: "s" }, { headers });
    const id = created.json["id"] as string;
    const turn = await routes.call(
      "POST",
      `/api/sessions/${id}/turns`,
      { content: "hello there", stream: false },
      { headers },
    );
    expect(turn.status, turn.text).toBe(200);
    return id;
  };
  const ownerOf = async (email: string) =>
    (await (await services()).database.db.user.findUniqueOrThrow({ where: { email } })).id;

  beforeAll(async () => {
    alice = await signUp("alice@example.com");
    bob = await signUp("bob@example.com");
    aliceSession = await sessionWithTurn(alice);
    bobSession = await sessionWithTurn(bob);
  });

  it("[R148] event streams past an account's cap are 429 with Retry-After; another account's are not", async () => {
    const open = [];
    for (let i = 0; i < 3; i++) {
      const ctl = new AbortController();
      const res = await routes.raw("GET", `/api/sessions/${aliceSession}/events`, {
        headers: alice,
        signal: ctl.signal,
      });
      expect(res.status).toBe(200);
      open.push({ ctl, res });
    }
    const refused = await routes.raw("GET", `/api/sessions/${aliceSession}/events`, {
      headers: alice,
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: "too_many_streams" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Bob is admitted while Alice floods: his stream and his turn.
    const bobCtl = new AbortController();
    const bobStream = await routes.raw("GET", `/api/sessions/${bobSession}/events`, {
      headers: bob,
      signal: bobCtl.signal,
    });
    expect(bobStream.status).toBe(200);
    const bobTurn = await routes.call(
      "POST",
      `/api/sessions/${bobSession}/turns`,
      { content: "still fast?", stream: false },
      { headers: bob },
    );
    expect(bobTurn.status).toBe(200);
    // A stream that ends gives its place back.
    const first = open.shift()!;
    first.ctl.abort();
    await first.res.body?.cancel().catch(() => undefined);
    const { admission } = await services();
    const aliceId = await ownerOf("alice@example.com");
    await expect.poll(() => admission.holding("event_streams", aliceId)).toBe(2);
    // A reader that cancels the body (a tab closed) gives its place back too.
    const second = open.shift()!;
    await second.res.body?.cancel();
    await expect.poll(() => admission.holding("event_streams", aliceId)).toBe(1);
    const again = await routes.raw("GET", `/api/sessions/${aliceSession}/events`, {
      headers: alice,
      signal: first.ctl.signal.aborted ? new AbortController().signal : first.ctl.signal,
    });
    expect(again.status).toBe(200);
    await again.body?.cancel();
    for (const s of open) {
      s.ctl.abort();
      await s.res.body?.cancel().catch(() => undefined);
    }
    bobCtl.abort();
    await bobStream.body?.cancel().catch(() => undefined);
  });

  it("[R148] an account writing an import cannot start a second; another account's import goes through", async () => {
    const file = await routes.call("GET", `/api/sessions/${bobSession}/export`, undefined, {
      headers: bob,
    });
    expect(file.status).toBe(200);
    // Alice's import whose body never ends: it holds her import place.
    let endBody!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"format":'));
        endBody = () => c.close();
      },
    });
    const hanging = routes.raw("POST", "/api/import", { headers: alice, rawBody: body });
    const { admission } = await services();
    const aliceId = await ownerOf("alice@example.com");
    await expect.poll(() => admission.holding("imports", aliceId)).toBe(1);
    const second = await routes.call("POST", "/api/import", file.json, { headers: alice });
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({ error: { code: "import_busy" } });
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    const bobs = await routes.call("POST", "/api/import", file.json, { headers: bob });
    expect(bobs.status, bobs.text).toBe(201);
    endBody();
    expect((await hanging).status).toBe(400);
    expect(admission.holding("imports", aliceId)).toBe(0);
  });

  it("[R148] heavy reads past an account's cap are 429; another account's read of a big session is admitted", async () => {
    const { admission } = await services();
    const aliceId = await ownerOf("alice@example.com");
    // One of Alice's graph reads of a big session is in progress.
    const leave = admission.enter("heavy_reads", aliceId);
    try {
      for (const path of ["graph", "nodes"]) {
        const refused = await routes.call(
          "GET",
          `/api/sessions/${aliceSession}/${path}`,
          undefined,
          { headers: alice },
        );
        expect(refused.status, path).toBe(429);
        expect(refused.json).toMatchObject({ error: { code: "account_busy" } });
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        const bobs = await routes.call("GET", `/api/sessions/${bobSession}/${path}`, undefined, {
          headers: bob,
        });
        expect(bobs.status, path).toBe(200);
      }
      // A page of Alice's ledger is no heavy read: the browser's paging goes on.
      const page = await routes.call(
        "GET",
        `/api/sessions/${aliceSession}/nodes?afterSeq=0&limit=50&view=lean`,
        undefined,
        { headers: alice },
      );
      expect(page.status).toBe(200);
    } finally {
      leave();
    }
    const after = await routes.call("GET", `/api/sessions/${aliceSession}/graph`, undefined, {
      headers: alice,
    });
    expect(after.status).toBe(200);
    expect(admission.holding("heavy_reads", aliceId)).toBe(0);
  });
});
