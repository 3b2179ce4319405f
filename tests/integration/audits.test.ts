import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { containsAll } from "@/lib/audit/find-value";
import { JUDGE_SYSTEM } from "@/lib/audit/judge";
import { asSessionId } from "@/lib/engine/ids";
import { SUMMARY_PREFIX } from "@/lib/engine/render-message";
import type { SummaryAudit } from "@/lib/engine/summary-audit";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { services } from "@/lib/server/services";
import { behaviours, type Behaviour } from "../support/recording-behaviours";
import { startRecordingServer, type RecordedRequest } from "../support/recording-server";
import { describeEachDatabase } from "./support/databases";
import { expectSchema } from "./support/openapi-schema";
import { useApp, type Routes } from "./support/routes";

/**
 * "Audit this summary" (issue 22) through the routes on SQLite and PostgreSQL: the offline
 * fact-retention check, and the model audit against the recording server — whose fallback
 * is a literal reader (it fills a cloze from its context, or says "not stated") and a
 * judge that compares the two answers — so every score below follows from what the
 * summary holds.
 */

type Message = { role: string; content: string };
const messagesOf = (r: RecordedRequest) => (r.body?.["messages"] ?? []) as Message[];

/** Fills the cloze of the last user message from the context before it. */
function readerAnswer(messages: readonly Message[]): string {
  const question = messages.at(-1)?.content ?? "";
  const cloze = /“(.*)”/s.exec(question)?.[1];
  if (cloze === undefined) return "not stated";
  const escaped = cloze.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/____/g, "(.+?)");
  const pattern = new RegExp(escaped);
  for (const m of messages.slice(0, -1)) {
    const found = pattern.exec(m.content);
    if (found) return found.slice(1).join(", ");
  }
  return "not stated";
}

/** 5 when the answer from the summary equals the one from the originals, 0 when it has none. */
function judgeAnswer(messages: readonly Message[]): string {
  const text = messages.at(-1)?.content ?? "";
  const reference = /Reference answer[^:]*: (.*)/.exec(text)?.[1]?.trim();
  const candidate = /Answer to grade[^:]*: (.*)/.exec(text)?.[1]?.trim();
  if (candidate === "not stated") return '{"score": 0, "reason": "not in the summary"}';
  return candidate === reference
    ? '{"score": 5, "reason": "same"}'
    : '{"score": 2, "reason": "different"}';
}

const server = await startRecordingServer({
  models: ["chat-model", "answer-model", "judge-model"],
  fallback: (request): Behaviour => {
    const messages = messagesOf(request);
    if (messages[0]?.content === JUDGE_SYSTEM) return behaviours.reply(judgeAnswer(messages));
    return behaviours.reply(readerAnswer(messages));
  },
});
afterAll(() => server.close());

/** Turns whose facts a summary can keep or lose. */
const TURNS = [
  "Our contact at the processor is Priya Raman; she signs off on webhook changes.",
  "The invoice run must finish within 83 minutes, finance says.",
  "I opened ticket BILL-2251 to track the cutover checklist.",
  "OK, decided: we'll copy the data with logical replication instead of dual writes.",
  "Remind me to rotate the replication password before we finish.",
  "What should we monitor on Monday?",
];

describeEachDatabase("[R229] audits of summaries", (kind) => {
  function setup(env: Record<string, string | undefined>) {
    let routes: Routes | undefined;
    useApp(kind, { SPINDLE_AUTH: "off", ...env }, (app) => ({ routes } = app));
    const call = (...args: Parameters<Routes["call"]>) => {
      if (!routes) throw new Error("the app is not up");
      return routes.call(...args);
    };
    /** A session with the turns above, compacted down to its last exchange. */
    async function compacted(): Promise<{ session: SessionRecord; summary: LedgerNode }> {
      const created = await call("POST", "/api/sessions", { title: "Audit" });
      expect(created.status, created.text).toBe(201);
      const session = created.json as unknown as SessionRecord;
      for (const content of TURNS) {
        const turn = await call("POST", `/api/sessions/${session.id}/turns`, {
          content,
          stream: false,
        });
        expect(turn.status, turn.text).toBe(200);
      }
      const compact = await call("POST", `/api/sessions/${session.id}/compact`);
      expect(compact.status, compact.text).toBe(200);
      const summary = compact.json["summary"] as LedgerNode | null;
      if (summary === null) throw new Error(`nothing compacted: ${compact.text}`);
      return { session, summary };
    }
    const nodes = async (id: string) =>
      (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as LedgerNode[];
    return { call, compacted, nodes };
  }

  describe("with the offline model: the fact-retention check", () => {
    const { call, compacted, nodes } = setup({});

    it("[R229] looks the extracted values up in the summary, stores the check and changes no node", async () => {
      const { session, summary } = await compacted();
      const before = await nodes(session.id);
      const headBefore = (await call("GET", `/api/sessions/${session.id}`)).json["headId"];
      const res = await call("POST", `/api/sessions/${session.id}/audits`, {
        summaryId: summary.id,
      });
      expect(res.status, res.text).toBe(201);
      const audit = res.json["audit"] as SummaryAudit;
      expectSchema("SummaryAudit", audit);
      expect(audit).toMatchObject({
        mode: "offline",
        model: null,
        judgeModel: null,
        score: null,
        summaryId: summary.id,
      });
      expect(audit.total).toBeGreaterThan(3);
      expect(audit.coveredTurns).toBe((summary.metadata.covers_ids ?? []).length);
      for (const probe of audit.probes) {
        expect(probe.found).toBe(containsAll(summary.content, probe.keys));
        expect(probe.summaryAnswer).toBeUndefined();
      }
      expect(audit.found).toBe(audit.probes.filter((p) => p.found).length);
      // The values the user stated are probed.
      const keys = audit.probes.flatMap((p) => p.keys);
      expect(keys).toEqual(expect.arrayContaining(["Priya Raman", "BILL-2251"]));
      // Nothing of the ledger moved.
      expect(await nodes(session.id)).toEqual(before);
      const after = await call("GET", `/api/sessions/${session.id}`);
      expect(after.json["headId"]).toBe(headBefore);
    });

    it("[R229] audits are append-only: a second one is added, the first stays as it was", async () => {
      const { session, summary } = await compacted();
      const first = (
        await call("POST", `/api/sessions/${session.id}/audits`, { summaryId: summary.id })
      ).json["audit"] as SummaryAudit;
      const second = (
        await call("POST", `/api/sessions/${session.id}/audits`, { summaryId: summary.id })
      ).json["audit"] as SummaryAudit;
      expect(second.id).not.toBe(first.id);
      const listed = await call(
        "GET",
        `/api/sessions/${session.id}/audits?summaryId=${summary.id}`,
      );
      expect(listed.status, listed.text).toBe(200);
      const audits = listed.json["audits"] as SummaryAudit[];
      expect(audits.map((a) => a.id)).toEqual([second.id, first.id]);
      expect(audits[1]).toEqual(first);
      expect((await call("GET", `/api/sessions/${session.id}/audits`)).json["audits"]).toHaveLength(
        2,
      );
      // Deleting the session takes its audits with it.
      expect((await call("DELETE", `/api/sessions/${session.id}`)).status).toBe(204);
      const { database } = await services();
      expect(
        await database.db.summaryAudit.count({ where: { sessionId: asSessionId(session.id) } }),
      ).toBe(0);
    });

    it("[R229] refuses what cannot be audited with a clear code, writing nothing", async () => {
      const { session, summary } = await compacted();
      const user = (await nodes(session.id)).find((n) => n.kind === "user");
      const audit = (body: unknown) => call("POST", `/api/sessions/${session.id}/audits`, body);
      const notSummary = await audit({ summaryId: user?.id });
      expect([notSummary.status, notSummary.json["error"]]).toEqual([
        409,
        expect.objectContaining({ code: "not_a_summary" }),
      ]);
      expect((await audit({ summaryId: "01UNKNOWNNODE" })).status).toBe(404);
      const model = await audit({ summaryId: summary.id, mode: "model" });
      expect([model.status, (model.json["error"] as { code: string }).code]).toEqual([
        400,
        "invalid_request",
      ]);
      expect((await audit({ summaryId: summary.id, extra: 1 })).status).toBe(400);
      expect(
        (await call("POST", "/api/sessions/01NOSUCHSESSION/audits", { summaryId: summary.id }))
          .status,
      ).toBe(404);
      const listed = await call("GET", `/api/sessions/${session.id}/audits`);
      expect(listed.json["audits"]).toEqual([]);
    });
  });

  describe("with a model: answers from the summary judged against answers from the originals", () => {
    const { call, compacted } = setup({
      OPENAI_BASE_URL: server.url,
      SPINDLE_MODEL: "chat-model",
      SPINDLE_SUMMARY_MODEL: "chat-model",
    });
    beforeEach(() => server.reset());

    /** Compacts with a summary that keeps two of the facts and loses the rest. */
    async function auditable() {
      server.enqueue(
        ...TURNS.map((t) => behaviours.reply(`Noted: ${t.slice(0, 20)}`)),
        behaviours.reply(
          "Goal: move billing.\nOur contact at the processor is Priya Raman; she signs off on webhook changes.\n" +
            "I opened ticket BILL-2251 to track the cutover checklist.",
        ),
      );
      const { session, summary } = await compacted();
      server.reset();
      return { session, summary };
    }

    it("[R229] asks each probe with the summary and with the originals, judges, scores and stores", async () => {
      const { session, summary } = await auditable();
      const res = await call("POST", `/api/sessions/${session.id}/audits`, {
        summaryId: summary.id,
        model: "answer-model",
        judgeModel: "judge-model",
      });
      expect(res.status, res.text).toBe(201);
      const audit = res.json["audit"] as SummaryAudit;
      expectSchema("SummaryAudit", audit);
      expect(audit).toMatchObject({
        mode: "model",
        model: "answer-model",
        judgeModel: "judge-model",
      });
      expect(audit.total).toBeGreaterThan(2);
      // Three calls a probe: two answers and one verdict.
      expect(server.chatRequests).toHaveLength(3 * audit.total);
      const answers = server.chatRequests.filter((r) => r.body?.["model"] === "answer-model");
      const verdicts = server.chatRequests.filter((r) => r.body?.["model"] === "judge-model");
      expect([answers.length, verdicts.length]).toEqual([2 * audit.total, audit.total]);
      // With the summary: ROOT and the summary as the model reads it; with the originals: ROOT
      // and every covered turn in spine order. Then the question.
      const withSummary = answers.filter((r) =>
        messagesOf(r).some((m) => m.content.startsWith(SUMMARY_PREFIX)),
      );
      expect(withSummary).toHaveLength(audit.total);
      for (const r of withSummary) {
        expect(messagesOf(r).map((m) => m.role)).toEqual(["system", "user", "user"]);
        expect(messagesOf(r)[1]?.content).toBe(SUMMARY_PREFIX + summary.content);
      }
      const covered = (summary.metadata.covers_ids ?? []).length;
      for (const r of answers.filter((x) => !withSummary.includes(x))) {
        expect(messagesOf(r)).toHaveLength(1 + covered + 1);
      }
      // Every score follows from what the summary kept.
      for (const probe of audit.probes) {
        const kept = containsAll(summary.content, probe.keys);
        expect([probe.keys, probe.found]).toEqual([probe.keys, kept]);
        expect(probe.originalAnswer).not.toBe("not stated");
        if (kept) expect([probe.keys, probe.score]).toEqual([probe.keys, 5]);
        else
          expect([probe.keys, probe.summaryAnswer, probe.score]).toEqual([
            probe.keys,
            "not stated",
            0,
          ]);
      }
      const scores = audit.probes.map((p) => p.score ?? 0);
      expect(audit.score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 2);
      expect(audit.score).toBeGreaterThan(0);
      expect(audit.score).toBeLessThan(5);
      const listed = await call("GET", `/api/sessions/${session.id}/audits`);
      expect(listed.json["audits"]).toEqual([audit]);
    });

    it("[R229] streams its progress as SSE and ends with the stored audit", async () => {
      const { session, summary } = await auditable();
      const res = await call("POST", `/api/sessions/${session.id}/audits`, {
        summaryId: summary.id,
        stream: true,
      });
      expect(res.status).toBe(200);
      expect(res.type).toContain("text/event-stream");
      const events = res.text
        .split("\n\n")
        .filter((e) => e.startsWith("event:"))
        .map((e) => ({
          event: /^event: (\w+)/.exec(e)?.[1],
          data: JSON.parse(/\ndata: (.*)/.exec(e)?.[1] ?? "null") as Record<string, unknown>,
        }));
      const progress = events.filter((e) => e.event === "progress").map((e) => e.data["done"]);
      const total = events[0]?.data["total"] as number;
      expect(progress).toEqual(Array.from({ length: total + 1 }, (_, i) => i));
      const done = events.at(-1);
      expect(done?.event).toBe("done");
      expect((done?.data["audit"] as SummaryAudit).total).toBe(total);
      // The session's own model answered, the summary model judged.
      expect(new Set(server.chatRequests.map((r) => r.body?.["model"]))).toEqual(
        new Set(["chat-model"]),
      );
    });

    it("[R229] originals too big for the answering model, or a failing model, store nothing", async () => {
      const { session, summary } = await auditable();
      const patched = await call("PATCH", `/api/sessions/${session.id}`, {
        settings: { contextWindow: 256 },
      });
      expect(patched.status, patched.text).toBe(200);
      const tooBig = await call("POST", `/api/sessions/${session.id}/audits`, {
        summaryId: summary.id,
      });
      expect([tooBig.status, (tooBig.json["error"] as { code: string }).code]).toEqual([
        409,
        "prompt_too_large",
      ]);
      expect(server.chatRequests).toHaveLength(0);
      server.enqueue(
        behaviours.error(400, { error: { message: "model not found", type: "invalid_request" } }),
      );
      const failing = await call("POST", `/api/sessions/${session.id}/audits`, {
        summaryId: summary.id,
        model: "no-such-model",
      });
      expect(failing.status).toBe(502);
      expect((await call("GET", `/api/sessions/${session.id}/audits`)).json["audits"]).toEqual([]);
    });
  });
});
