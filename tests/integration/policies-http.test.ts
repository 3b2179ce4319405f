import { describe, expect, it } from "vitest";
import { activeSummaryIds } from "@/lib/engine/active-summaries";
import { isEngineError } from "@/lib/engine/errors";
import { createExtractiveSummarizer } from "@/lib/llm/extractive-summarizer";
import type { SessionStore } from "@/lib/store/session-store";
import {
  chat,
  gatedSummarizer,
  offlineProviders,
  summaries,
  wireCompaction,
  withSummarizer,
} from "./support/compaction-helpers";
import { describeEachDatabase, useFreshStore } from "./support/databases";
import { expectSchema } from "./support/openapi-schema";
import { useApp, type Routes } from "./support/routes";

describeEachDatabase("[R252] compaction's compare-and-swap under an active set", (kind) => {
  let store: SessionStore;
  useFreshStore(kind, (env) => ({ store } = env));

  async function segmented(turns: number) {
    const gated = gatedSummarizer(createExtractiveSummarizer());
    const wired = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), gated.summarizer),
      serverKeepRecentTokens: 1,
      turnCompaction: false,
    });
    const s = await store.createSession({ title: "cas" });
    await store.updateMeta(s.id, (m) => ({ ...m, settings: { policy: "segmented" } }));
    await chat(wired.dispatcher, s.id, turns);
    return { ...wired, gated, sessionId: s.id };
  }

  it("[R252] two concurrent compactions leave one new segment and a valid set", async () => {
    const { compactor, gated, sessionId } = await segmented(4);
    const first = compactor.compact(await store.getSession(sessionId));
    const second = compactor.compact(await store.getSession(sessionId));
    await gated.arrived(2);
    gated.release();
    const results = await Promise.allSettled([first, second]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(isEngineError(lost.reason) && lost.reason.code).toBe("compaction_conflict");
    const written = await summaries(store, sessionId);
    expect(written).toHaveLength(1);
    expect(activeSummaryIds((await store.getSession(sessionId)).meta)).toEqual([written[0]?.id]);
  });

  it("[R252] a segment planned against one set never lands over a newer one", async () => {
    const { compactor, dispatcher, gated, sessionId } = await segmented(4);
    gated.release();
    const s1 = (await compactor.compact(await store.getSession(sessionId))).summary;
    await chat(dispatcher, sessionId, 3, 10);
    const slow = gatedSummarizer(createExtractiveSummarizer());
    const late = wireCompaction(store, {
      providers: withSummarizer(offlineProviders(), slow.summarizer),
      serverKeepRecentTokens: 1,
      turnCompaction: false,
    });
    // Planned against [S1] and held; meanwhile S2 lands.
    const held = late.compactor.compact(await store.getSession(sessionId));
    await slow.arrived(1);
    const s2 = (await compactor.compact(await store.getSession(sessionId))).summary;
    slow.release();
    await expect(held).rejects.toMatchObject({ code: "compaction_conflict" });
    expect(activeSummaryIds((await store.getSession(sessionId)).meta)).toEqual([s1?.id, s2?.id]);
    expect(await summaries(store, sessionId)).toHaveLength(2);
  });
});

describe("[R240] the policy over HTTP", () => {
  let routes: Routes;
  useApp("sqlite", { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));
  const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);

  it("[R240] PATCH takes settings.policy, refuses an unknown one listing the three, and null restores the default", async () => {
    const id = (await call("POST", "/api/sessions", {})).json["id"] as string;
    const set = await call("PATCH", `/api/sessions/${id}`, { settings: { policy: "nested" } });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({
      meta: { settings: { policy: "nested" } },
      activeSummaryIds: [],
    });
    expectSchema("Session", set.json);
    const bad = await call("PATCH", `/api/sessions/${id}`, { settings: { policy: "stacked" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      error: {
        code: "invalid_request",
        message: expect.stringContaining("rolling-single, segmented, nested"),
      },
    });
    // The new-session form's POST takes the same field and refuses the same way.
    const badNew = await call("POST", "/api/sessions", { settings: { policy: "Segmented" } });
    expect(badNew.status).toBe(400);
    expect(JSON.stringify(badNew.json)).toContain("rolling-single, segmented, nested");
    const made = await call("POST", "/api/sessions", { settings: { policy: "segmented" } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ meta: { settings: { policy: "segmented" } } });
    // Nothing changed.
    expect((await call("GET", `/api/sessions/${id}`)).json).toMatchObject({
      meta: { settings: { policy: "nested" } },
    });
    const cleared = await call("PATCH", `/api/sessions/${id}`, { settings: { policy: null } });
    expect((cleared.json["meta"] as { settings: object }).settings).not.toHaveProperty("policy");
  });

  it("[R256] the session and the graph carry activeSummaryIds; export and import keep the set and every rendering", async () => {
    const id = (await call("POST", "/api/sessions", {})).json["id"] as string;
    await call("PATCH", `/api/sessions/${id}`, {
      settings: { policy: "segmented", keepRecentTokens: 120, autoCompact: false },
    });
    const say = (content: string) =>
      call("POST", `/api/sessions/${id}/turns`, { content, stream: false });
    for (let i = 0; i < 4; i += 1) await say(`Question ${i} about the parser in src/p${i}.ts?`);
    const c1 = await call("POST", `/api/sessions/${id}/compact`);
    expect(c1.status).toBe(200);
    for (let i = 4; i < 8; i += 1) await say(`Question ${i} about the cache in src/c${i}.ts?`);
    const c2 = await call("POST", `/api/sessions/${id}/compact`);
    expectSchema("CompactResult", c2.json);
    const ids = [
      (c1.json["summary"] as { id: string }).id,
      (c2.json["summary"] as { id: string }).id,
    ];
    const session = await call("GET", `/api/sessions/${id}`);
    expectSchema("Session", session.json);
    expect(session.json["activeSummaryIds"]).toEqual(ids);
    expect(session.json["meta"]).toMatchObject({ _active_summary_ids: ids });
    const graph = await call("GET", `/api/sessions/${id}/graph`);
    expectSchema("Graph", graph.json);
    expect(graph.json["activeSummaryIds"]).toEqual(ids);
    const context = await call("GET", `/api/sessions/${id}/context`);
    expect((context.json["ids"] as string[]).slice(1, 3)).toEqual(ids);

    const exported = await call("GET", `/api/sessions/${id}/export?format=json`);
    const imported = await call("POST", "/api/import", exported.text);
    expect(imported.status).toBe(201);
    const copy = imported.json["id"] as string;
    const again = await call("GET", `/api/sessions/${copy}/context`);
    // Same shape, new ids: the copy reads its two summaries and then the same kept turns.
    const kinds = (c: Record<string, unknown>) =>
      (c["messages"] as { kind: string; content: string }[]).map((m) => [m.kind, m.content]);
    expect(kinds(again.json)).toEqual(kinds(context.json));
    expect((await call("GET", `/api/sessions/${copy}`)).json["activeSummaryIds"]).toHaveLength(2);
  });
});
