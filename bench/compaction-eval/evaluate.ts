/**
 * One conversation of the compaction eval: the conversation as a ledger, compacted at each
 * kept window by the engine's own pipeline (planCompaction → summarizeInChunks, the steps
 * the Compactor runs), then every planted probe checked with and without the summary.
 *
 * Offline, "retained" means the probe's values are in the text the model would read (the
 * rendering: ROOT, the summary, the kept tail) — a literal lookup, the same one the offline
 * audit makes. With a model, it means the model's answer to the probe question, asked with
 * that rendering, contains them.
 */
import { asNodeId, asSessionId, tokens, type NodeId } from "../../lib/engine/ids";
import { contextTokens } from "../../lib/engine/context-tokens";
import { planCompaction } from "../../lib/engine/plan-compaction";
import { renderContext, type RenderedContext } from "../../lib/engine/render-context";
import type { LedgerNode } from "../../lib/engine/types";
import { extractProbes, type ProbeSource } from "../../lib/audit/extract-probes";
import { containsAll } from "../../lib/audit/find-value";
import { offlineCheck } from "../../lib/audit/offline-check";
import { probeMessages } from "../../lib/audit/probe-prompt";
import { summarizeInChunks } from "../../lib/compaction/summarize-in-chunks";
import { summaryBudgetOf } from "../../lib/compaction/summary-budget";
import { countTokens } from "../../lib/llm/tokens";
import type { ChatMessage, Summarizer } from "../../lib/llm/types";
import { toWire } from "../../lib/view/wire";
import type { CorpusConversation, CorpusProbe } from "./corpus";
import type { PlantKind } from "./domain";

export interface EvalSetup {
  /** Tokens kept verbatim after the summary (`keepRecentTokens`), one run each. */
  readonly keptWindows: readonly number[];
  /** The model's context window: it sets the summary's budget, as in the app. */
  readonly contextWindow: number;
  readonly summarizer: Summarizer;
  /** The model that writes summaries (token counts use its vocabulary). */
  readonly summaryModel?: string;
  /** Asks the model; absent offline. */
  readonly ask?: (messages: readonly ChatMessage[]) => Promise<string>;
}

export interface ProbeOutcome {
  readonly id: string;
  readonly kind: PlantKind;
  /** Whether the message that planted it is among the summarised turns. */
  readonly covered: boolean;
  readonly retainedWith: boolean;
  readonly retainedWithout: boolean;
  /** A revised decision answered with the value it replaced. */
  readonly staleWith?: boolean;
  readonly answerWith?: string;
  readonly answerWithout?: string;
}

export interface WindowOutcome {
  readonly keptWindow: number;
  /** `nothing_to_compact` or `too_few_messages` when the pipeline wrote nothing. */
  readonly notice?: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly coveredMessages: number;
  readonly coveredTokens: number;
  readonly summaryTokens: number;
  readonly probes: readonly ProbeOutcome[];
  /** The offline audit on this summary: extracted probes found in its text. */
  readonly audit: { readonly retained: number; readonly total: number };
}

export interface ConversationOutcome {
  readonly id: string;
  readonly turns: number;
  readonly tokens: number;
  readonly windows: readonly WindowOutcome[];
}

const SESSION = asSessionId("eval");
const CREATED = "2026-01-01T00:00:00.000Z";

function node(
  i: number,
  kind: LedgerNode["kind"],
  content: string,
  predecessorId: NodeId | null,
  model: string | undefined,
): LedgerNode {
  return {
    id: asNodeId(`n${String(i).padStart(4, "0")}`),
    sessionId: SESSION,
    predecessorId,
    seq: i,
    kind,
    content,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: countTokens(content, model),
    createdAt: CREATED,
  };
}

/** The conversation as a ledger spine: ROOT (the system prompt), then every message. */
export function ledgerOf(conversation: CorpusConversation, model?: string): LedgerNode[] {
  const spine = [node(0, "root", conversation.system, null, model)];
  conversation.messages.forEach((m, i) => {
    spine.push(node(i + 1, m.role, m.content, spine.at(-1)?.id ?? null, model));
  });
  return spine;
}

const textOf = (rendering: RenderedContext) => rendering.messages.map((m) => m.content).join("\n");

export async function evaluateConversation(
  conversation: CorpusConversation,
  setup: EvalSetup,
): Promise<ConversationOutcome> {
  const spine = ledgerOf(conversation, setup.summaryModel);
  const full = renderContext({ spine, activeSummaries: [] });
  const sourceId = (probe: CorpusProbe) => spine[probe.source + 1]?.id;
  const ask = setup.ask;
  const answer = async (rendering: RenderedContext, probe: CorpusProbe) =>
    ask ? ask(probeMessages(toWire(rendering).messages, probe.question)) : undefined;

  // Without compaction: the same for every window.
  const without = new Map<string, { retained: boolean; answer?: string }>();
  for (const probe of conversation.probes) {
    const reply = await answer(full, probe);
    without.set(probe.id, {
      retained: containsAll(reply ?? textOf(full), probe.keys),
      ...(reply === undefined ? {} : { answer: reply }),
    });
  }

  const windows: WindowOutcome[] = [];
  for (const keptWindow of setup.keptWindows) {
    const tokensBefore = contextTokens(full.messages);
    const plan = planCompaction({ spine, rendering: full, keepRecentTokens: keptWindow });
    if (plan.kind === "notice") {
      windows.push({
        keptWindow,
        notice: plan.code,
        tokensBefore,
        tokensAfter: tokensBefore,
        coveredMessages: 0,
        coveredTokens: 0,
        summaryTokens: 0,
        probes: [],
        audit: { retained: 0, total: 0 },
      });
      continue;
    }
    const text = await summarizeInChunks({
      summarizer: setup.summarizer,
      plan,
      summarizerWindow: setup.contextWindow,
      budget: summaryBudgetOf(setup.contextWindow),
      count: (t) => countTokens(t, setup.summaryModel),
    });
    const summary: LedgerNode = {
      ...node(spine.length, "summary", text, plan.predecessorId, setup.summaryModel),
      metadata: { covers_ids: plan.coversIds },
    };
    const compacted = renderContext({ spine, activeSummaries: [summary] });
    const covered = new Set(plan.coversIds);
    const probes: ProbeOutcome[] = [];
    for (const probe of conversation.probes) {
      const reply = await answer(compacted, probe);
      const context = reply ?? textOf(compacted);
      const before = without.get(probe.id);
      const id = sourceId(probe);
      probes.push({
        id: probe.id,
        kind: probe.kind,
        covered: id !== undefined && covered.has(id),
        retainedWith: containsAll(context, probe.keys),
        retainedWithout: before?.retained ?? false,
        ...(probe.stale && reply !== undefined
          ? { staleWith: containsAll(reply, probe.stale.keys) && !containsAll(reply, probe.keys) }
          : {}),
        ...(reply === undefined ? {} : { answerWith: reply }),
        ...(before?.answer === undefined ? {} : { answerWithout: before.answer }),
      });
    }
    const originals: ProbeSource[] = plan.covered.map((m) => ({
      id: m.id,
      role: m.role,
      content: m.content,
    }));
    const audit = offlineCheck(extractProbes(originals), text).overall;
    windows.push({
      keptWindow,
      tokensBefore,
      tokensAfter: contextTokens(compacted.messages),
      coveredMessages: plan.covered.length,
      coveredTokens: contextTokens(plan.covered),
      summaryTokens: tokens(countTokens(text, setup.summaryModel)),
      probes,
      audit,
    });
  }
  return {
    id: conversation.id,
    turns: conversation.messages.filter((m) => m.role === "user").length,
    tokens: contextTokens(full.messages),
    windows,
  };
}
