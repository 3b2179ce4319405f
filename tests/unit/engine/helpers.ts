import { activeSummaries } from "@/lib/engine/active-summaries";
import { asNodeId, asSessionId, tokens, type NodeId, type SessionId } from "@/lib/engine/ids";
import { createLedgerIndex, type LedgerIndex } from "@/lib/engine/ledger-index";
import { renderContext, type RenderedContext } from "@/lib/engine/render-context";
import { spineOf } from "@/lib/engine/spine-of";
import type {
  LedgerNode,
  NodeKind,
  NodeLookup,
  NodeMetadata,
  NodeStatus,
  SessionMeta,
  SessionRecord,
} from "@/lib/engine/types";

/** Test ids are plain strings; this brands them. */
export const id = (value: string): NodeId => asNodeId(value);
export const ids = (...values: string[]): NodeId[] => values.map(asNodeId);

export const SESSION: SessionId = asSessionId("s1");
export const DEFAULT_TOKENS = 10;

export interface NodeSpec {
  readonly content?: string;
  readonly tokens?: number;
  readonly status?: NodeStatus;
  readonly callerId?: string;
  readonly metadata?: NodeMetadata;
  /** Assistant nodes: ids of the tool calls it makes. */
  readonly toolCalls?: readonly string[];
  /** Tool nodes: the call answered. */
  readonly toolCallId?: string;
}

const KIND_BY_PREFIX: Readonly<Record<string, NodeKind>> = {
  u: "user",
  a: "assistant",
  t: "tool",
  n: "notice",
  s: "summary",
  S: "summary",
  R: "root",
};

/** The kind a test id names by its first letter: u1 user, a1 assistant, t1 tool, n1 notice. */
export function kindOf(nodeId: string): NodeKind {
  const kind = KIND_BY_PREFIX[nodeId[0] ?? ""];
  if (kind === undefined) throw new Error(`No kind for test id ${nodeId}`);
  return kind;
}

/**
 * A tiny ledger builder with deterministic ids and seqs: `ledger().chain("R", "u1 a1 u2 a2")`
 * makes ROOT `R` followed by four nodes, each 10 tokens.
 */
export class Ledger {
  readonly nodes: LedgerNode[] = [];
  readonly sessionId: SessionId;
  private nextSeq = 0;

  constructor(rootId = "R", sessionId: SessionId = SESSION) {
    this.sessionId = sessionId;
    this.add(rootId, "root", null, { content: "You are a test assistant." });
  }

  /** Appends one node. */
  add(nodeId: string, kind: NodeKind, predecessor: string | null, spec: NodeSpec = {}): LedgerNode {
    const metadata: NodeMetadata = {
      ...(spec.toolCalls !== undefined
        ? { tool_calls: spec.toolCalls.map((c) => ({ id: c, name: "lookup", arguments: "{}" })) }
        : {}),
      ...(spec.toolCallId !== undefined ? { tool_call_id: spec.toolCallId } : {}),
      ...spec.metadata,
    };
    const node: LedgerNode = {
      id: id(nodeId),
      sessionId: this.sessionId,
      predecessorId: predecessor === null ? null : id(predecessor),
      seq: this.nextSeq++,
      kind,
      content: spec.content ?? `${nodeId} text`,
      status: spec.status ?? "complete",
      callerId: spec.callerId === undefined ? null : id(spec.callerId),
      metadata,
      reads: [],
      tokenCount: tokens(spec.tokens ?? DEFAULT_TOKENS),
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    this.nodes.push(node);
    return node;
  }

  /** Appends a chain under `from`; kinds come from the ids' first letters. */
  chain(from: string, spec: string, options: NodeSpec = {}): this {
    let predecessor = from;
    for (const nodeId of spec.split(/\s+/).filter(Boolean)) {
      this.add(nodeId, kindOf(nodeId), predecessor, options);
      predecessor = nodeId;
    }
    return this;
  }

  /** Appends a summary node covering `covers`, hanging off `predecessor` (ROOT by default). */
  summary(nodeId: string, covers: readonly string[], predecessor = "R", spec: NodeSpec = {}) {
    return this.add(nodeId, "summary", predecessor, {
      ...spec,
      content: spec.content ?? `summary ${nodeId}`,
      metadata: { covers_ids: ids(...covers), ...spec.metadata },
    });
  }

  get(nodeId: string): LedgerNode {
    const node = this.lookup(id(nodeId));
    if (node === undefined) throw new Error(`No test node ${nodeId}`);
    return node;
  }

  readonly lookup: NodeLookup = (nodeId) => this.nodes.find((n) => n.id === nodeId);

  index(): LedgerIndex {
    return createLedgerIndex(this.nodes);
  }

  spine(head: string): readonly LedgerNode[] {
    return spineOf(id(head), this.index().get);
  }

  meta(summary?: string, extra: SessionMeta = {}): SessionMeta {
    return summary === undefined ? extra : { ...extra, _last_summary_id: id(summary) };
  }

  session(head: string | null, summary?: string, meta: SessionMeta = {}): SessionRecord {
    return {
      id: this.sessionId,
      title: "test",
      headId: head === null ? null : id(head),
      rootId: this.nodes[0]?.id ?? null,
      meta: this.meta(summary, meta),
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
  }

  /** renderContext from `head` with `summary` as the session's active summary. */
  render(head: string, summary?: string): RenderedContext {
    const index = this.index();
    return renderContext({
      spine: spineOf(id(head), index.get),
      activeSummaries: activeSummaries(this.meta(summary), index.get),
    });
  }
}

export function ledger(rootId = "R"): Ledger {
  return new Ledger(rootId);
}

/** Freezes a value and everything reachable from it, so a mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The error code a call throws, or `undefined` when it does not throw. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code ?? "not-an-engine-error";
  }
  return undefined;
}
