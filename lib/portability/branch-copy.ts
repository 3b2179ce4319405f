import { EngineError } from "../engine/errors";
import type { NodeId, Tokens } from "../engine/ids";
import { rendersInPlace } from "../engine/renders-in-place";
import { isSideLeafKind } from "../engine/side-leaf";
import type { ImportPlan, LedgerNode, SessionMeta, SessionRecord } from "../engine/types";

export interface BranchCopyInput {
  readonly source: SessionRecord;
  /** The branch to copy: its spine, ROOT first, ending at the chosen tip. */
  readonly spine: readonly LedgerNode[];
  /** The new session's ROOT content, and its token count. */
  readonly systemPrompt: string;
  readonly systemPromptTokens: Tokens;
  /** The user's title for the copy; default: the source's title (and its title source). */
  readonly title?: string | undefined;
  readonly newId: () => NodeId;
  /** When the copy is made (the new ROOT's `createdAt`). */
  readonly now: string;
}

/**
 * "New session from this branch with a different system prompt" (docs/spec.md [R107]): the
 * branch ending at the spine's tip, as a new session's ledger. A new ROOT holds the new
 * prompt; the spine's messages that render in place (user, assistant and tool turns that are
 * neither `error` nor still `streaming`) follow as one linear chain with fresh ids, HEAD at
 * its tip. The copy therefore reads exactly what the source branch reads raw, under the new
 * prompt. Summaries are not copied: they stand in for nodes of the source and were written
 * under its prompt; the copy compacts itself again when its budget asks. Copied nodes keep
 * content, metadata, token count and time, name their original in `copied_from`, and have
 * no `reads` (they were not produced from this session's prompt). Settings are kept.
 *
 * @throws EngineError `invalid_ledger` when the spine does not start at ROOT;
 *   `node_not_checkoutable` when its tip is a summary or a notice.
 */
export function planBranchCopy(input: BranchCopyInput): ImportPlan {
  const { spine, source } = input;
  const tip = spine.at(-1);
  if (spine[0]?.kind !== "root" || tip === undefined) {
    throw new EngineError("invalid_ledger", "A branch copy starts from a spine rooted at ROOT.");
  }
  if (isSideLeafKind(tip.kind)) {
    throw new EngineError(
      "node_not_checkoutable",
      `Node ${tip.id} is a ${tip.kind}: a side leaf is not a branch.`,
    );
  }
  const rootId = input.newId();
  const fresh = new Map<NodeId, NodeId>();
  const nodes: ImportPlan["nodes"][number][] = [
    {
      id: rootId,
      predecessorId: null,
      seq: 0,
      kind: "root",
      content: input.systemPrompt,
      status: "complete",
      callerId: null,
      metadata: {},
      reads: [],
      tokenCount: input.systemPromptTokens,
      createdAt: input.now,
    },
  ];
  let previous = rootId;
  for (const node of spine.slice(1)) {
    if (node.status === "streaming" || !rendersInPlace(node)) continue;
    const id = input.newId();
    fresh.set(node.id, id);
    nodes.push({
      id,
      predecessorId: previous,
      seq: nodes.length,
      kind: node.kind,
      content: node.content,
      status: node.status,
      callerId: node.callerId === null ? null : (fresh.get(node.callerId) ?? null),
      metadata: { ...node.metadata, copied_from: node.id },
      reads: [],
      tokenCount: node.tokenCount,
      createdAt: node.createdAt,
    });
    previous = id;
  }
  const meta: Record<string, unknown> = {
    forkedFrom: { sessionId: source.id, nodeId: tip.id },
  };
  if (source.meta.settings) meta["settings"] = source.meta.settings;
  if (source.meta.policy) meta["policy"] = source.meta.policy;
  const title = input.title?.trim();
  if (title) meta["titleSource"] = "user";
  else if (source.meta.titleSource) meta["titleSource"] = source.meta.titleSource;
  return {
    title: title || source.title,
    headId: previous,
    rootId,
    meta: meta as SessionMeta,
    nodes,
  };
}
