import { describe, expect, it } from "vitest";
import { generateCorpus } from "@/bench/compaction-eval/corpus";
import { evaluateConversation, ledgerOf } from "@/bench/compaction-eval/evaluate";
import { loadCorpus } from "@/bench/compaction-eval/load-corpus";
import { buildReport, renderMarkdown } from "@/bench/compaction-eval/report";
import { containsAll } from "@/lib/audit/find-value";
import { summaryTextOf } from "@/lib/llm/summary-marker";
import { createExtractiveSummarizer } from "@/lib/llm/extractive-summarizer";
import type { ChatMessage } from "@/lib/llm/types";

const corpus = loadCorpus();

describe("the compaction eval's corpus", () => {
  it("ships at least 20 long conversations, each with every kind of planted probe", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    for (const c of corpus) {
      expect(c.messages.filter((m) => m.role === "user").length).toBeGreaterThanOrEqual(60);
      expect(new Set(c.probes.map((p) => p.kind))).toEqual(
        new Set(["fact", "artifact", "decision", "pending"]),
      );
      // Each planted value is said exactly where its probe says, and nowhere else.
      for (const p of c.probes) {
        const where = c.messages.flatMap((m, i) => (containsAll(m.content, p.keys) ? [i] : []));
        expect([p.id, where]).toEqual([p.id, [p.source]]);
      }
    }
  });

  it("is exactly what its generator makes (regenerate after changing a domain)", () => {
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...corpus].sort(byId)).toEqual(generateCorpus().sort(byId));
  });
});

describe("the compaction eval", () => {
  const conversation = corpus[0];
  if (conversation === undefined) throw new Error("no corpus");
  const setup = { keptWindows: [1_000, 5_000], contextWindow: 16_384 };

  it("compacts with the engine's pipeline and checks every probe with and without the summary", async () => {
    const outcome = await evaluateConversation(conversation, {
      ...setup,
      summarizer: createExtractiveSummarizer(),
    });
    expect(outcome.windows.map((w) => w.keptWindow)).toEqual([1_000, 5_000]);
    const [small, large] = outcome.windows;
    if (small === undefined || large === undefined) throw new Error("missing windows");
    // A smaller kept window covers more and compresses harder.
    expect(small.coveredMessages).toBeGreaterThan(large.coveredMessages);
    expect(small.tokensAfter).toBeLessThan(large.tokensAfter);
    expect(small.tokensAfter).toBeLessThan(small.tokensBefore);
    for (const w of outcome.windows) {
      expect(w.probes).toHaveLength(conversation.probes.length);
      // Without compaction every planted value is in the context.
      expect(w.probes.every((p) => p.retainedWithout)).toBe(true);
      // A probe the summary does not cover is in the kept tail, verbatim.
      expect(w.probes.filter((p) => !p.covered).every((p) => p.retainedWith)).toBe(true);
      expect(w.audit.total).toBeGreaterThan(0);
    }
    // The extractive summariser loses something: the eval is not a tautology.
    expect(small.probes.some((p) => !p.retainedWith)).toBe(true);
  });

  it("with a model, retention is judged on its answers to the probes asked with each context", async () => {
    const spine = ledgerOf(conversation);
    const asked: ChatMessage[][] = [];
    // A reader that answers with a probe's values exactly when its context holds them.
    const ask = (messages: readonly ChatMessage[]) => {
      asked.push([...messages]);
      const question = messages.at(-1)?.content ?? "";
      const probe = conversation.probes.find((p) => question.endsWith(p.question));
      const context = messages
        .slice(0, -1)
        .map((m) => m.content)
        .join("\n");
      return Promise.resolve(
        probe && containsAll(context, probe.keys) ? probe.keys.join(", ") : "not stated",
      );
    };
    const summarizer = createExtractiveSummarizer();
    const offline = await evaluateConversation(conversation, { ...setup, summarizer });
    const model = await evaluateConversation(conversation, { ...setup, summarizer, ask });
    const retained = (o: typeof offline) =>
      o.windows.map((w) => w.probes.map((p) => [p.retainedWith, p.retainedWithout]));
    expect(retained(model)).toEqual(retained(offline));
    // Asked once per probe without the summary, and once per probe and window with it.
    expect(asked).toHaveLength(conversation.probes.length * 3);
    const withSummary = asked.filter((m) => m.some((x) => summaryTextOf(x.content) !== undefined));
    expect(withSummary).toHaveLength(conversation.probes.length * 2);
    expect(asked.filter((m) => m.length === spine.length + 1)).toHaveLength(
      conversation.probes.length,
    );
  });

  it("reports per window and probe kind as a Markdown table", async () => {
    const outcome = await evaluateConversation(conversation, {
      ...setup,
      summarizer: createExtractiveSummarizer(),
    });
    const report = buildReport(
      { mode: "offline", model: "offline model", summaryModel: "offline model", ...setup },
      [outcome],
    );
    expect(report.retention).toHaveLength(2 * 5);
    const all = report.retention.find((r) => r.keptWindow === 1_000 && r.kind === "all");
    expect(all?.probes).toBe(conversation.probes.length);
    expect(all?.retainedWithout).toBe(conversation.probes.length);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain("| Kept window | Probe kind |");
    expect(markdown).toContain("| 1,000 | **all** |");
    expect(markdown).toContain("Compression of the covered turns");
  });
});

describe("npm run eval:compaction against an OpenAI-compatible endpoint", () => {
  it("summarises and asks through --base-url/--model and writes the report as JSON", async () => {
    const { startRecordingServer } = await import("@/tests/support/recording-server");
    const { execFile } = await import("node:child_process");
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const server = await startRecordingServer({ models: ["eval-model"] });
    try {
      const out = path.join(mkdtempSync(path.join(tmpdir(), "eval-")), "report.json");
      const args = ["tsx", "bench/eval-compaction.ts", "--base-url", server.url, "--model"];
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          "npx",
          [...args, "eval-model", "--limit", "1", "--windows", "2000", "--json", out],
          { env: { ...process.env, OPENAI_API_KEY: "sk-eval-test" } },
          (error, text) => (error ? reject(error) : resolve(text)),
        ),
      );
      expect(stdout).toContain("| Kept window | Probe kind |");
      const report = JSON.parse(readFileSync(out, "utf8")) as { mode: string; model: string };
      expect(report).toMatchObject({ mode: "model", model: "eval-model" });
      const probes = corpus[0]?.probes.length ?? 0;
      // Each probe without the summary, one summary, each probe with it.
      expect(server.chatRequests).toHaveLength(2 * probes + 1);
      for (const r of server.chatRequests) {
        expect(r.body?.["model"]).toBe("eval-model");
        expect(r.headers["authorization"]).toBe("Bearer sk-eval-test");
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
