import { leanNode } from "../engine/wire-node";
import { asSessionId, isIdShaped, type NodeId, type SessionId } from "../engine/ids";
import type { LedgerNode, SessionRecord, ToolCall } from "../engine/types";
import type { ChatProvider, ToolSpec } from "../llm/types";
import { DEFAULT_TOOL_ROUNDS, MAX_AGENT_DEPTH, SEND_MESSAGE_TOOL, TASK_TOOL } from "./agent-tools";
import type { TurnCompaction } from "../compaction/turn-compaction";
import { streamReply, type ReplyOptions, type TurnEvent } from "./run-turn";
import type { TurnWriter } from "./turn-writer";

/** What the loop needs from the dispatcher. */
export interface AgentDeps {
  readonly store: ReplyOptions["store"];
  readonly provider: ChatProvider;
  readonly flushMs: number;
  readonly keepAliveMs: number;
  /** A turn in another session, advancing that session's HEAD (`send_message`). */
  readonly sendToSession: (input: {
    sourceSessionId: SessionId;
    targetSessionId: SessionId;
    content: string;
    signal?: AbortSignal;
  }) => Promise<{ reply: LedgerNode }>;
}

/** One agent's run: the main turn (depth 0) or a sub-agent on its side branch. */
export interface AgentContext {
  readonly session: SessionRecord;
  readonly model: string;
  /** Head-advancing for the main turn, head-neutral for a sub-agent (compaction.md §5). */
  readonly writer: TurnWriter;
  readonly signal?: AbortSignal | undefined;
  readonly depth: number;
  /** The functions offered to the model; undefined: none (models without tool support). */
  readonly tools: readonly ToolSpec[] | undefined;
  /** Whether `send_message` may reach a session (the Workspace's ownership check). */
  readonly mayReach: ((id: SessionId) => Promise<boolean>) | undefined;
  /** The caller a sub-agent's nodes carry (`callerId`); null on the main chain. */
  readonly callerId: NodeId | null;
  readonly compaction?: TurnCompaction | undefined;
  /** Whether this turn compacted already: a turn compacts at most once ([R58]), all rounds. */
  readonly compacted: { value: boolean };
}

/** Calls one reply may make; more are answered "not run" (a runaway fan-out is bounded). */
export const MAX_CALLS_PER_ROUND = 8;

/**
 * The agent loop after a reply (issue 11): while the model's last reply calls tools, run
 * the calls (concurrently), answer each with a `tool` node chained in call order under the
 * caller, and ask the model again with the results — until a reply without calls, the
 * round limit (every call still answered, then a notice), or the user's Stop. Every call
 * gets a result, even one that failed, so the branch stays valid for strict servers.
 *
 * @returns the last reply the loop wrote (or `first` when it called nothing).
 */
export async function* toolRounds(
  deps: AgentDeps,
  ctx: AgentContext,
  first: LedgerNode,
): AsyncGenerator<TurnEvent, LedgerNode> {
  const limit = ctx.session.meta.settings?.toolRounds ?? DEFAULT_TOOL_ROUNDS;
  let last = first;
  for (let round = 1; ; round += 1) {
    const calls = last.status === "complete" ? (last.metadata.tool_calls ?? []) : [];
    if (calls.length === 0) return last;
    const overLimit = round > limit;
    const stopped = ctx.signal?.aborted === true;
    const caller = last;
    // Each call is answered on its own: one that throws cannot take the others' results
    // (or their finished sub-agents) down with it.
    const results = await Promise.all(
      calls.map(async (call, i) => {
        if (stopped) return "Not run: the user stopped the turn.";
        if (overLimit) return `Not run: this turn reached its limit of ${limit} tool rounds.`;
        if (i >= MAX_CALLS_PER_ROUND) {
          return `Not run: at most ${MAX_CALLS_PER_ROUND} calls are run per reply.`;
        }
        try {
          return await runTool(deps, ctx, caller, call);
        } catch (e) {
          return `Error: the ${call.name} call failed on the server: ${e instanceof Error ? e.message : String(e)}`;
        }
      }),
    );
    let parent = caller.id;
    for (const [i, call] of calls.entries()) {
      const tool = await ctx.writer.appendTool(parent, results[i] ?? "", {
        callerId: ctx.callerId ?? caller.id,
        toolCallId: call.id,
      });
      yield { type: "node", node: leanNode(tool) };
      parent = tool.id;
    }
    if (overLimit) {
      ctx.writer.publishNotice(
        "tool_round_limit",
        `The model kept calling tools: the turn stopped after ${limit} rounds. Ask it to answer directly, or raise the limit (settings.toolRounds).`,
        parent,
      );
      return last;
    }
    if (stopped || ctx.signal?.aborted) return last;
    last = yield* streamReply({
      store: deps.store,
      provider: deps.provider,
      writer: ctx.writer,
      session: ctx.session,
      model: ctx.model,
      parentId: parent,
      callerId: ctx.callerId,
      signal: ctx.signal,
      compaction: ctx.compaction,
      compactedThisTurn: ctx.compacted.value,
      flushMs: deps.flushMs,
      keepAliveMs: deps.keepAliveMs,
      ...(ctx.tools ? { tools: ctx.tools } : {}),
    });
    if (last.metadata["reactive_compaction"] === true) ctx.compacted.value = true;
  }
}

/** A sub-agent's outcome: its branch, and the text that answers the caller's call. */
export interface SubAgentResult {
  /** Null when not even the branch could be opened. */
  readonly branchRootId: NodeId | null;
  readonly text: string;
  /** The sub-agent's final reply, when it got as far as one. */
  readonly replyId: NodeId | null;
}

/**
 * Runs a sub-agent: a head-neutral side branch opening from `caller` (its root and every
 * node carry `callerId`), reading the spec's view (the conversation up to the caller, then
 * the prompt), with the tools again while the depth limit allows. Whatever happens, it
 * answers with a text for the caller's tool result: a failure or a Stop is said in it.
 */
export async function runSubAgent(
  deps: AgentDeps,
  parent: AgentContext,
  caller: LedgerNode,
  prompt: string,
): Promise<SubAgentResult> {
  const writer = parent.writer.spawned();
  const depth = parent.depth + 1;
  const ctx: AgentContext = {
    ...parent,
    writer,
    depth,
    callerId: caller.id,
    tools: depth < MAX_AGENT_DEPTH ? parent.tools : undefined,
    compaction: undefined,
    compacted: { value: true },
  };
  let branchRootId: NodeId | null = null;
  try {
    const branchRoot = await writer.appendUser(caller.id, prompt, { callerId: caller.id });
    branchRootId = branchRoot.id;
    const run = agentTurn(deps, ctx, branchRoot.id);
    let step = await run.next();
    while (!step.done) step = await run.next();
    const reply = step.value;
    const cutOff = (reply.metadata.tool_calls?.length ?? 0) > 0;
    const text =
      reply.status !== "complete"
        ? `The sub-agent's reply ended ${reply.status}${reply.metadata.error ? `: ${reply.metadata.error.message}` : ""}.\n\n${reply.content}`
        : cutOff
          ? `The sub-agent stopped before answering (its tool rounds ran out, or the turn was stopped).${reply.content ? `\n\n${reply.content}` : ""}`
          : reply.content;
    return { branchRootId, text, replyId: reply.id };
  } catch (e) {
    return {
      branchRootId,
      text: `The sub-agent failed: ${e instanceof Error ? e.message : String(e)}`,
      replyId: null,
    };
  }
}

/** A reply under `parentId`, then its tool rounds. */
async function* agentTurn(
  deps: AgentDeps,
  ctx: AgentContext,
  parentId: NodeId,
): AsyncGenerator<TurnEvent, LedgerNode> {
  const reply = yield* streamReply({
    store: deps.store,
    provider: deps.provider,
    writer: ctx.writer,
    session: ctx.session,
    model: ctx.model,
    parentId,
    callerId: ctx.callerId,
    signal: ctx.signal,
    flushMs: deps.flushMs,
    keepAliveMs: deps.keepAliveMs,
    ...(ctx.tools ? { tools: ctx.tools } : {}),
  });
  return yield* toolRounds(deps, ctx, reply);
}

/** Runs one call; every outcome, a bad call included, is a text the model can read. */
async function runTool(
  deps: AgentDeps,
  ctx: AgentContext,
  caller: LedgerNode,
  call: ToolCall,
): Promise<string> {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.arguments.trim() === "" ? "{}" : call.arguments);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error();
    args = parsed as Record<string, unknown>;
  } catch {
    return `Error: the arguments of ${call.name} must be a JSON object; got ${JSON.stringify(call.arguments.slice(0, 200))}.`;
  }
  switch (call.name) {
    case TASK_TOOL: {
      const prompt = args["prompt"];
      if (typeof prompt !== "string" || prompt.trim() === "") {
        return `Error: ${TASK_TOOL} needs a non-empty "prompt" string.`;
      }
      return (await runSubAgent(deps, ctx, caller, prompt)).text;
    }
    case SEND_MESSAGE_TOOL: {
      const target = args["session_id"];
      const content = args["content"];
      if (typeof target !== "string" || typeof content !== "string") {
        return `Error: ${SEND_MESSAGE_TOOL} needs "session_id" and "content" strings.`;
      }
      if (target === ctx.session.id) {
        return `Error: ${SEND_MESSAGE_TOOL} is for other conversations; answer in this one directly.`;
      }
      const reachable =
        isIdShaped(target) &&
        ctx.mayReach !== undefined &&
        (await ctx.mayReach(asSessionId(target)));
      if (!reachable) return `Error: there is no conversation ${target} you can send to.`;
      try {
        const { reply } = await deps.sendToSession({
          sourceSessionId: ctx.session.id,
          targetSessionId: asSessionId(target),
          content,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
        return reply.status === "complete"
          ? reply.content
          : `The other conversation's reply ended ${reply.status}: ${reply.metadata.error?.message ?? reply.content}`;
      } catch (e) {
        return `Error: the message could not be sent: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    default:
      return `Error: there is no tool named ${JSON.stringify(call.name)}; the tools are ${TASK_TOOL} and ${SEND_MESSAGE_TOOL}.`;
  }
}
