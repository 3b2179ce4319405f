import { EngineError } from "../engine/errors";
import { DEFAULT_SYSTEM_PROMPT } from "../engine/system-prompt";
import { chatGptConversationSchema, type ChatGptConversation } from "../http/schemas";
import { messageText } from "./chatgpt-content";
import { MAX_NODE_CHARS, type LedgerShell } from "./ledger-file";

/**
 * One ChatGPT conversation (an element of `conversations.json`) as a Spindle ledger file,
 * ready for the ordinary validated import (`parseLedgerNodes` → `planImport` →
 * `importSession`): this module only translates, it never writes.
 *
 * ChatGPT keeps a conversation as a tree of messages, each naming its parent; an edit adds a
 * sibling user message, a regeneration a sibling reply, and `current_node` is the message
 * the UI shows last. Every branch is kept as a Spindle branch and HEAD lands on
 * `current_node`. Messages that are not conversation — the empty root, hidden messages,
 * reasoning, memory writes, custom instructions, empty parts — are skipped: their children
 * hang off the nearest kept ancestor. System messages above the first kept message become
 * the ROOT (their text, or the default system prompt). A run of assistant and tool messages
 * with no branch inside it (a reply that called a ChatGPT tool, the tool's output, the reply
 * going on) becomes one assistant node: ChatGPT's tools are not Spindle's function tools,
 * and the ChatGPT UI shows such a run as one reply.
 */

/** The most text one imported conversation may hold (≈ 4M tokens; real ones hold a few MB). */
export const MAX_CONVERSATION_CHARS = 16_000_000;

export interface ChatGptImportOptions {
  /** Most messages one conversation may hold (the ledger import's node cap). */
  readonly maxNodes: number;
  /** When a message carries no usable time of its own or of its conversation. */
  readonly now: Date;
}

type Message = NonNullable<ChatGptConversation["mapping"][string]["message"]>;

/** A Spindle node being built: one ChatGPT message, or a run of them merged. */
interface Group {
  readonly id: string;
  readonly kind: "user" | "assistant";
  readonly parent: Group | null;
  readonly depth: number;
  readonly texts: string[];
  readonly sourceIds: string[];
  time: number;
  status: "complete" | "interrupted";
  model: string | undefined;
}

const ROOT_ID = "root";

/** The conversation's title, when it has a readable one (for reporting a failure). */
export function chatGptTitle(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null) return null;
  const title = (raw as Record<string, unknown>)["title"];
  return typeof title === "string" && title.trim() !== "" ? title.trim().slice(0, 200) : null;
}

/**
 * Translates one ChatGPT conversation into a ledger file.
 *
 * @throws EngineError `invalid_request` naming the first problem (not a conversation, an
 *   unknown author role, a parent missing from the conversation, a cycle, no root, a content
 *   type with no readable text, nothing to import), or `payload_too_large` past the message
 *   cap, a message longer than a node may be, or a conversation past
 *   {@link MAX_CONVERSATION_CHARS}.
 */
export function chatGptToLedger(raw: unknown, options: ChatGptImportOptions): LedgerShell {
  const mapping =
    typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)["mapping"] : null;
  if (typeof mapping !== "object" || mapping === null || Array.isArray(mapping)) {
    throw invalid("it is not a ChatGPT conversation (it has no `mapping` of messages)");
  }
  // The cap comes before anything walks the messages.
  const count = Object.keys(mapping).length;
  if (count > options.maxNodes) {
    throw new EngineError(
      "payload_too_large",
      `The conversation has ${count.toLocaleString("en")} messages; this server imports at most ${options.maxNodes.toLocaleString("en")}.`,
    );
  }
  const parsed = chatGptConversationSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw invalid(`${where}${issue?.message ?? "it is not a ChatGPT conversation"}`);
  }
  const conversation = parsed.data;
  const order = preorder(conversation);
  const fallbackTime = validTime(conversation.create_time) ?? options.now.getTime() / 1000;

  // Top-down: what each message contributes, and the kept message each one hangs under
  // (undefined above the first kept message, where system text goes to ROOT).
  const text = new Map<string, string>();
  const anchor = new Map<string, string | undefined>();
  const rootTexts: string[] = [];
  let total = 0;
  for (const id of order) {
    const node = conversation.mapping[id];
    const parent = node?.parent ?? undefined;
    const above = parent === undefined ? undefined : anchor.get(parent);
    const message = node?.message;
    const t = message ? contribution(id, message) : undefined;
    if (t !== undefined && message?.author.role === "system") {
      if (above === undefined) rootTexts.push(t);
    } else if (t !== undefined) {
      text.set(id, t);
      total += t.length;
      if (total > MAX_CONVERSATION_CHARS) {
        throw new EngineError(
          "payload_too_large",
          `The conversation holds more than ${MAX_CONVERSATION_CHARS.toLocaleString("en")} characters of text; this server imports at most that much per conversation.`,
        );
      }
    }
    anchor.set(id, text.has(id) ? id : above);
  }
  if (text.size === 0) throw invalid("it has no visible messages to import");

  // Merging needs to know which kept messages have exactly one kept child.
  const keptChildren = new Map<string | undefined, number>();
  for (const id of text.keys()) {
    const parent = conversation.mapping[id]?.parent ?? undefined;
    const above = parent === undefined ? undefined : anchor.get(parent);
    keptChildren.set(above, (keptChildren.get(above) ?? 0) + 1);
  }

  const groupOf = new Map<string, Group>();
  const groups: Group[] = [];
  for (const id of order) {
    const t = text.get(id);
    const message = conversation.mapping[id]?.message;
    if (t === undefined || !message) continue;
    const parent = conversation.mapping[id]?.parent ?? undefined;
    const aboveId = parent === undefined ? undefined : anchor.get(parent);
    const above = aboveId === undefined ? null : (groupOf.get(aboveId) ?? null);
    const kind = message.author.role === "user" ? "user" : "assistant";
    const time = validTime(message.create_time) ?? above?.time ?? fallbackTime;
    let group: Group;
    if (kind === "assistant" && above?.kind === "assistant" && keptChildren.get(aboveId) === 1) {
      group = above;
    } else {
      group = {
        id: `n${groups.length}`,
        kind,
        parent: above,
        depth: (above?.depth ?? 0) + 1,
        texts: [],
        sourceIds: [],
        // Never before its predecessor: seq follows time, and a predecessor comes first.
        time: Math.max(time, above?.time ?? time),
        status: "complete",
        model: undefined,
      };
      groups.push(group);
    }
    group.texts.push(t);
    group.sourceIds.push(id);
    if (kind === "assistant") {
      const model = message.metadata?.["model_slug"];
      if (typeof model === "string" && model.length <= 200) group.model = model;
      if (message.status && message.status !== "finished_successfully") {
        group.status = "interrupted";
      }
    }
    groupOf.set(id, group);
  }

  // Seq in time order; a predecessor is never later and never deeper, so it comes first.
  const sorted = groups
    .map((g, i) => ({ g, i }))
    .sort((a, b) => a.g.time - b.g.time || a.g.depth - b.g.depth || a.i - b.i)
    .map(({ g }) => g);
  const rootContent = rootTexts.join("\n\n") || DEFAULT_SYSTEM_PROMPT;
  const nodes = [
    ledgerNode(ROOT_ID, null, 0, "root", rootContent, "complete", {}, fallbackTime),
    ...sorted.map((g, i) =>
      ledgerNode(
        g.id,
        g.parent?.id ?? ROOT_ID,
        i + 1,
        g.kind,
        checkedContent(g),
        g.status,
        { chatgpt_ids: g.sourceIds, ...(g.model ? { model: g.model } : {}) },
        g.time,
      ),
    ),
  ];
  return {
    format: "spindle.ledger",
    version: 1,
    session: {
      title: chatGptTitle(raw) ?? "ChatGPT conversation",
      headId: headOf(conversation, anchor, groupOf, sorted),
      meta: {},
    },
    nodes,
  };
}

/**
 * The mapping's ids, every parent before its children (children in the order they were
 * written), after checking that the messages form one tree: every parent present, no cycle,
 * exactly one root.
 */
function preorder(conversation: ChatGptConversation): string[] {
  const { mapping } = conversation;
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const [id, node] of Object.entries(mapping)) {
    const parent = node.parent ?? undefined;
    if (parent === undefined) {
      roots.push(id);
      continue;
    }
    if (!(parent in mapping)) {
      throw invalid(`message ${short(id)} names a parent ${short(parent)} that is not in it`);
    }
    const list = children.get(parent);
    if (list) list.push(id);
    else children.set(parent, [id]);
  }
  // Every message must reach a root without revisiting one: messages already known to
  // reach it end a walk early, so the check is linear in the conversation.
  const reachesRoot = new Set<string>(roots);
  for (const id of Object.keys(mapping)) {
    const path = new Set<string>();
    let cur: string | undefined = id;
    while (cur !== undefined && !reachesRoot.has(cur)) {
      if (path.has(cur)) throw invalid(`its messages form a cycle through ${short(cur)}`);
      path.add(cur);
      cur = mapping[cur]?.parent ?? undefined;
    }
    for (const p of path) reachesRoot.add(p);
  }
  const root = roots[0];
  if (root === undefined || roots.length > 1) {
    throw invalid(
      `it has ${roots.length} messages without a parent; a conversation has exactly one root`,
    );
  }
  const order: string[] = [];
  // Iterative: a long conversation is a deep tree.
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    order.push(id);
    const kids = children.get(id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as string);
  }
  return order;
}

/** A message's text for the ledger, or undefined when it is not conversation. */
function contribution(id: string, message: Message): string | undefined {
  if (message.metadata?.["is_visually_hidden_from_conversation"] === true) {
    // A hidden system message may still hold the prompt the conversation ran under.
    if (message.author.role !== "system") return undefined;
  }
  const t = messageText(message);
  switch (t.kind) {
    case "text":
      return t.text;
    case "skip":
      return undefined;
    case "unreadable":
      throw invalid(
        `message ${short(id)} has content of type "${t.contentType.slice(0, 64)}", which holds no text this importer can read`,
      );
  }
}

/** HEAD: `current_node`, or its nearest kept ancestor; the newest node when it names none. */
function headOf(
  conversation: ChatGptConversation,
  anchor: ReadonlyMap<string, string | undefined>,
  groupOf: ReadonlyMap<string, Group>,
  sorted: readonly Group[],
): string {
  const current = conversation.current_node ?? undefined;
  if (current !== undefined && anchor.has(current)) {
    const kept = anchor.get(current);
    return kept === undefined ? ROOT_ID : (groupOf.get(kept)?.id ?? ROOT_ID);
  }
  return sorted.at(-1)?.id ?? ROOT_ID;
}

function checkedContent(group: Group): string {
  const content = group.texts.join("\n\n");
  if (content.length > MAX_NODE_CHARS) {
    throw new EngineError(
      "payload_too_large",
      `Message ${short(group.sourceIds[0] ?? "")} holds ${content.length.toLocaleString("en")} characters; a node holds at most ${MAX_NODE_CHARS.toLocaleString("en")}.`,
    );
  }
  return content;
}

function ledgerNode(
  id: string,
  predecessorId: string | null,
  seq: number,
  kind: "root" | "user" | "assistant",
  content: string,
  status: "complete" | "interrupted",
  metadata: Record<string, unknown>,
  time: number,
) {
  return {
    id,
    predecessorId,
    seq,
    kind,
    content,
    status,
    callerId: null,
    metadata,
    reads: [],
    createdAt: new Date(Math.round(time * 1000)).toISOString(),
  };
}

/** Seconds since the epoch that both databases can store (year 1970 to 9999). */
function validTime(t: number | null | undefined): number | undefined {
  return typeof t === "number" && Number.isFinite(t) && t >= 0 && t < 253_402_300_800
    ? t
    : undefined;
}

/** Ids are quoted in errors, cut short: they come from the file. */
const short = (id: string) => JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);

function invalid(what: string): EngineError {
  return new EngineError("invalid_request", `The conversation cannot be imported: ${what}.`);
}
