/**
 * "Audit this summary": probes about the originals a summary stands in for, asked once with
 * the summary and once with the originals, and the summary's answers judged against the
 * originals' (issue 22). With the offline model nothing can answer, so the audit is the
 * labelled fact-retention check instead (offline-check.ts). Either way the result is stored
 * append-only and nothing of the ledger changes.
 */
import { contextTokens } from "../engine/context-tokens";
import { EngineError } from "../engine/errors";
import { asNodeId, type NodeId } from "../engine/ids";
import { renderMessage, type RenderedMessage } from "../engine/render-message";
import { originalsOf } from "../engine/replay-prompt";
import {
  type AuditFigure,
  type AuditProbeResult,
  type ProbeKind,
  type SummaryAudit,
} from "../engine/summary-audit";
import type { LedgerNode, SessionRecord } from "../engine/types";
import { collectStream } from "../llm/collect-stream";
import { isProviderError } from "../llm/provider-error";
import { logProviderError, userMessage } from "../llm/user-message";
import type { ChatMessage, ChatProvider } from "../llm/types";
import type { AuditStore } from "../store/audit-store";
import type { LedgerReads } from "../store/ledger-reads";
import { withExpansion } from "../view/expansion-nodes";
import { toWire } from "../view/wire";
import { chooseProbes, extractProbes, type Probe } from "./extract-probes";
import { containsAll } from "./find-value";
import { judgeMessages, parseVerdict } from "./judge";
import { probeMessages } from "./probe-prompt";

/** Probes a model audit asks, by kind: twelve questions, each asked twice and judged once. */
export const MODEL_PROBES: Readonly<Record<ProbeKind, number>> = {
  fact: 4,
  artifact: 3,
  decision: 3,
  pending: 2,
};
/** The offline check is cheap: it looks up many more. */
const OFFLINE_PROBES: Readonly<Record<ProbeKind, number>> = {
  fact: 20,
  artifact: 15,
  decision: 10,
  pending: 10,
};
/** Model calls in flight at once for one audit. */
const CONCURRENCY = 3;
/** A probe's answer is short; this caps a model that rambles. */
const ANSWER_TOKENS = 200;

export interface AuditorDeps {
  readonly store: Pick<LedgerReads, "node" | "nodesById">;
  readonly audits: Pick<AuditStore, "append" | "list">;
  readonly provider: ChatProvider;
  readonly newId: () => string;
  readonly now: () => Date;
}

export interface AuditRequest {
  readonly session: SessionRecord;
  readonly summaryId: NodeId;
  /** `offline` forces the fact-retention check even when a model is configured. */
  readonly mode: "model" | "offline";
  /** Answers the probes (model audits). */
  readonly model: string;
  /** Judges the answers (model audits). */
  readonly judgeModel: string;
  /** The answering model's context window: the originals must fit it. */
  readonly window: number;
  readonly signal?: AbortSignal | undefined;
}

/** How far an audit is: probes answered and judged so far, of all. */
export interface AuditProgress {
  readonly type: "progress";
  readonly done: number;
  readonly total: number;
}

export class SummaryAuditor {
  constructor(private readonly deps: AuditorDeps) {}

  /** Runs one audit and stores it; yields progress while the model works. */
  async *audit(request: AuditRequest): AsyncGenerator<AuditProgress, SummaryAudit> {
    const { session } = request;
    const summary = await this.deps.store.node(session.id, request.summaryId);
    if (summary.kind !== "summary") {
      throw new EngineError(
        "not_a_summary",
        `Node ${summary.id} is a ${summary.kind}; only a summary can be audited.`,
      );
    }
    const rootId = session.rootId;
    const root = rootId === null ? undefined : await this.deps.store.node(session.id, rootId);
    if (root === undefined) throw new EngineError("invalid_ledger", "The session has no ROOT.");
    const lookup = await withExpansion(this.deps.store, session.id, [root], [summary]);
    const originals = originalsOf(summary, lookup);
    const extracted = extractProbes(
      originals.map((n) => ({ id: n.id, role: roleOf(n), content: n.content })),
    );

    let results: AuditProbeResult[];
    if (request.mode === "offline") {
      results = chooseProbes(extracted, OFFLINE_PROBES).map((p) => ({
        ...probeFields(p),
        found: containsAll(summary.content, p.keys),
      }));
    } else {
      const probes = chooseProbes(extracted, MODEL_PROBES);
      const withSummary = toWire(rendering([root, summary])).messages;
      const withOriginals = toWire(rendering([root, ...originals])).messages;
      const needed = contextTokens(rendering([root, ...originals]).messages) + ANSWER_TOKENS;
      if (needed > request.window) {
        throw new EngineError(
          "prompt_too_large",
          `The originals of this summary take about ${needed} tokens with a question, more than ` +
            `${request.model}'s context window of ${request.window}: they cannot be asked about.`,
        );
      }
      // One failed call fails the audit: the calls still in flight are stopped with it.
      const stop = new AbortController();
      const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
      const calls = { ...request, signal };
      results = new Array<AuditProbeResult>(probes.length);
      yield { type: "progress", done: 0, total: probes.length };
      let completed = 0;
      let notify = () => {};
      const queue = probes.map((probe, i) => ({ probe, i }));
      const worker = async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          results[next.i] = await this.judged(calls, next.probe, summary, {
            withSummary,
            withOriginals,
          });
          completed++;
          notify();
        }
      };
      const all = Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, probes.length) }, worker),
      ).catch((e: unknown) => {
        stop.abort();
        throw e;
      });
      // Progress as each probe is judged; a failing call fails the audit (nothing stored).
      for (let done = 0; done < probes.length;) {
        const changed = new Promise<void>((resolve) => (notify = resolve));
        if (completed > done) {
          done = completed;
          yield { type: "progress", done, total: probes.length };
          continue;
        }
        await Promise.race([changed, all]);
      }
      await all;
    }
    const audit: SummaryAudit = {
      id: this.deps.newId(),
      sessionId: session.id,
      summaryId: summary.id,
      createdAt: this.deps.now().toISOString(),
      mode: request.mode,
      model: request.mode === "model" ? request.model : null,
      judgeModel: request.mode === "model" ? request.judgeModel : null,
      score: meanScore(results),
      found: results.filter((r) => r.found).length,
      total: results.length,
      byKind: figuresByKind(results),
      coveredTurns: originals.length,
      probes: results,
    };
    return this.deps.audits.append(audit);
  }

  private async judged(
    request: AuditRequest,
    probe: Probe,
    summary: LedgerNode,
    contexts: { withSummary: ChatMessage[]; withOriginals: ChatMessage[] },
  ): Promise<AuditProbeResult> {
    const [summaryAnswer, originalAnswer] = await Promise.all([
      this.ask(request, request.model, probeMessages(contexts.withSummary, probe.question)),
      this.ask(request, request.model, probeMessages(contexts.withOriginals, probe.question)),
    ]);
    const verdict = parseVerdict(
      await this.ask(
        request,
        request.judgeModel,
        judgeMessages({
          question: probe.question,
          sentence: probe.sentence,
          reference: originalAnswer,
          candidate: summaryAnswer,
        }),
      ),
    );
    return {
      ...probeFields(probe),
      found: containsAll(summary.content, probe.keys),
      summaryAnswer,
      originalAnswer,
      score: verdict?.score ?? null,
      reason: verdict?.reason ?? "The judge gave no score.",
    };
  }

  private async ask(request: AuditRequest, model: string, messages: ChatMessage[]) {
    let result;
    try {
      result = await collectStream(
        this.deps.provider.stream({
          messages,
          model,
          temperature: 0,
          maxOutputTokens: ANSWER_TOKENS,
          ...(request.signal ? { signal: request.signal } : {}),
        }),
      );
    } catch (e) {
      // The provider's code travels as is (a gateway error, [R60]); nothing is stored.
      if (isProviderError(e)) {
        logProviderError("audit", e);
        throw new EngineError(e.code, `${model}: ${userMessage(e)} The audit stored nothing.`);
      }
      throw e;
    }
    if (result.finishReason === "aborted") {
      throw new EngineError("aborted", "The audit was stopped; nothing was stored.");
    }
    return result.text.trim();
  }
}

function probeFields(p: Probe) {
  return {
    kind: p.kind,
    sourceId: p.sourceId,
    question: p.question,
    keys: p.keys,
    sentence: p.sentence,
  };
}

function roleOf(node: LedgerNode): "user" | "assistant" | "tool" | "system" {
  return node.kind === "user"
    ? "user"
    : node.kind === "tool"
      ? "tool"
      : node.kind === "root"
        ? "system"
        : "assistant";
}

function rendering(nodes: readonly LedgerNode[]) {
  const messages: RenderedMessage[] = [];
  for (const n of nodes) {
    const m = renderMessage(n);
    if (m !== null) messages.push(m);
  }
  const headId = nodes.at(-1)?.id ?? asNodeId("");
  return { headId, ids: messages.map((m) => m.id), messages };
}

function meanScore(results: readonly AuditProbeResult[]): number | null {
  const scores = results.flatMap((r) => (typeof r.score === "number" ? [r.score] : []));
  if (scores.length === 0) return null;
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100;
}

function figuresByKind(results: readonly AuditProbeResult[]): Record<ProbeKind, AuditFigure> {
  const figure = (kind: ProbeKind): AuditFigure => {
    const of = results.filter((r) => r.kind === kind);
    return { found: of.filter((r) => r.found).length, total: of.length, score: meanScore(of) };
  };
  return {
    fact: figure("fact"),
    artifact: figure("artifact"),
    decision: figure("decision"),
    pending: figure("pending"),
  };
}
