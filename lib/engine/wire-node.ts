import type { LedgerNode, NodeMetadata } from "./types";

/**
 * What a node on the wire may leave out (docs/big-sessions.md): `"reads"` — a lean node,
 * whole content but `reads` emptied; `"skeleton"` — the card label instead of the content,
 * no reads, tool-call arguments emptied. Absent on a full node.
 */
export type WirePartial = "reads" | "skeleton";

/** A ledger node as the routes, the events and the turn stream carry it. */
export type WireNode = LedgerNode & { readonly partial?: WirePartial };

/** A lean node: what every event and the turn stream carry (`reads` left out). */
export type LeanNode = LedgerNode & { readonly partial: "reads" };

/** The three shapes `GET .../nodes?view=` serves. */
export type NodeView = "full" | "lean" | "skeleton";

/** The longest card label, in characters (the cut mark included). */
export const LABEL_MAX_CHARS = 90;

/** Lines of a text the label looks at: a card never shows what lies further down. */
const LABEL_LINES = 20;

/**
 * What ends a cut label: three full stops, not "…". A label of Latin-1 text is then held
 * in one byte a character on the page (V8 stores a string with any other character in two),
 * and a large session's page holds one label per node (6.4 MB at 100,000 nodes). A card
 * shows two lines of its label and draws its own ellipsis where it clips.
 */
export const CUT_MARK = "...";

/**
 * `line` cut to at most `max` characters, ending with {@link CUT_MARK} — never between the
 * two halves of a character outside the BMP (an emoji): half a character is not text, and
 * the page's payload would turn it into U+FFFD.
 */
function cut(line: string, max: number): string {
  const end = max - CUT_MARK.length;
  const last = line.charCodeAt(end - 1);
  const inPair = last >= 0xd800 && last <= 0xdbff;
  return `${line.slice(0, inPair ? end - 1 : end)}${CUT_MARK}`;
}

/**
 * The first non-empty line of `text` (within its first 20 lines), cut to `max` with
 * {@link CUT_MARK}.
 * Reads only as far as that line (a long reply is not split whole for its label).
 * Idempotent: a label is its own label.
 */
export function firstLine(text: string, max = LABEL_MAX_CHARS): string {
  let line = "";
  for (let start = 0, lines = 0; start <= text.length && lines < LABEL_LINES; lines += 1) {
    const end = text.indexOf("\n", start);
    const candidate = text.slice(start, end < 0 ? text.length : end).trim();
    if (candidate !== "") {
      line = candidate;
      break;
    }
    if (end < 0) break;
    start = end + 1;
  }
  return line.length > max ? cut(line, max) : line;
}

/**
 * The label of a text of which only a prefix is at hand (`complete`: the prefix is the
 * whole text), or `undefined` when the rest could change it — then the caller reads the
 * whole text. Lets the skeleton ledger read a bounded prefix of each node, not its content.
 */
export function firstLineOfPrefix(
  prefix: string,
  complete: boolean,
  max = LABEL_MAX_CHARS,
): string | undefined {
  if (complete) return firstLine(prefix, max);
  const segments = prefix.split("\n");
  // The last segment is cut short by the prefix; every earlier one is a whole line.
  for (let i = 0; i < segments.length && i < LABEL_LINES; i += 1) {
    const trimmed = (segments[i] ?? "").trim();
    const whole = i < segments.length - 1;
    if (whole) {
      if (trimmed !== "") return firstLine(prefix, max);
      continue;
    }
    // A cut line longer than the label is cut at the same place whatever follows it.
    return trimmed.length > max ? cut(trimmed, max) : undefined;
  }
  // Twenty blank lines: the label is empty whatever follows.
  return "";
}

/** A node whose `reads` are left out (events, the turn stream, catch-up pages). */
export function leanNode(node: LedgerNode): LeanNode {
  const { partial: _partial, ...rest } = node as WireNode;
  return { ...rest, reads: [], partial: "reads" };
}

/**
 * Whether a node always travels with its content: ROOT and summaries (the transcript and
 * the capsule show their text) and streaming replies (deltas apply to the whole content).
 */
export function keepsContent(node: Pick<LedgerNode, "kind" | "status">): boolean {
  return node.kind === "root" || node.kind === "summary" || node.status === "streaming";
}

/** The metadata a skeleton keeps: every key, the tool calls' arguments emptied. */
function skeletonMetadata(metadata: NodeMetadata): NodeMetadata {
  const calls = metadata.tool_calls;
  if (calls === undefined) return metadata;
  return { ...metadata, tool_calls: calls.map((call) => ({ ...call, arguments: "" })) };
}

/**
 * A node reduced to its card (`label` when the caller has it already, else the content's
 * first line); ROOT, summaries and streaming nodes are lean instead ({@link keepsContent}).
 */
export function skeletonNode(node: LedgerNode, label?: string): WireNode {
  if (keepsContent(node)) return leanNode(node);
  const { partial: _partial, ...rest } = node as WireNode;
  return {
    ...rest,
    content: label ?? firstLine(node.content),
    metadata: skeletonMetadata(node.metadata),
    reads: [],
    partial: "skeleton",
  };
}

/** A node in the requested shape. */
export function shapeNode(node: LedgerNode, view: NodeView): WireNode {
  switch (view) {
    case "full":
      return node;
    case "lean":
      return leanNode(node);
    case "skeleton":
      return skeletonNode(node);
  }
}
