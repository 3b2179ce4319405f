import { asNodeId, tokens, type NodeId, type SessionId } from "./ids";
import type { NodeKind, NodeMetadata, NodeStatus } from "./types";
import type { WireNode, WirePartial } from "./wire-node";

/**
 * The session page's first ledger in columns ([R293]): the same nodes as `WireNode[]`, in the
 * same order, without repeating on every node what the page already knows. A large
 * session's page is mostly this ledger, and a list of objects repeats the field names, the
 * session's id, each predecessor's id, an empty `metadata` and `reads`, and a timestamp per
 * node — about 430 characters per skeleton inside the page's payload (where every quote is
 * escaped), 43 MB for 100,000 nodes, which the browser had to parse before the page ran.
 * Columns carry a skeleton in about a third of that.
 *
 * Exact: `unpackLedger(packLedger(s, nodes))` deep-equals `nodes` for any nodes of session
 * `s`. A node a column cannot carry exactly (another session's, an id with a comma, a
 * timestamp not in `toISOString` form, a kind or status this version does not know)
 * travels whole in `whole`.
 */
export interface PackedLedger {
  readonly sessionId: SessionId;
  /** How many nodes, packed and whole. */
  readonly count: number;
  /** The packed nodes' ids in order, joined by commas. */
  readonly ids: string;
  /**
   * Per packed node: 1 + its predecessor's position among these nodes, or 0 — then its
   * predecessor is in `outer` (one not among these nodes, or not before it: a page of a
   * skeleton pass whose nodes hang off nodes of earlier pages), or it has none. (`pred`
   * before `outer` existed, when such a node travelled whole: renamed, so a reader of the
   * older form fails on this one instead of reading those nodes as roots.)
   */
  readonly predecessor: readonly number[];
  /** By packed index: the predecessor's id, where it is not among these nodes before it. */
  readonly outer: Readonly<Record<number, NodeId>>;
  /** Per packed node: its seq minus the previous packed node's (the first: its seq). */
  readonly seq: readonly number[];
  /** Per packed node, one letter each: its kind, its status, what it leaves out. */
  readonly kind: string;
  readonly status: string;
  readonly partial: string;
  /**
   * The packed nodes' contents, one after the other, and each one's length: one string
   * travels as one value (the page's payload writes it once, the browser slices it),
   * where 100,000 strings were 100,000 values to serialise and parse.
   *
   * Split by width: a content of Latin-1 characters only goes in `content`, any other in
   * `wide`, its length negated in `contentLengths`. The browser holds a string with one
   * character past U+00FF in two bytes a character, and its contents are slices of these
   * strings — one curly quote in a page's labels would double the memory of them all.
   * (The lengths were `contentLength`, all ≥ 0, before the split: renamed, so a reader of
   * the older form fails on a page of this one instead of slicing it wrong.)
   */
  readonly content: string;
  readonly wide: string;
  readonly contentLengths: readonly number[];
  readonly tokens: readonly number[];
  /** Per packed node: its `createdAt` in ms, minus the previous packed node's. */
  readonly time: readonly number[];
  /** By packed index, only where not empty / not null. */
  readonly metadata: Readonly<Record<number, NodeMetadata>>;
  readonly reads: Readonly<Record<number, readonly NodeId[]>>;
  readonly caller: Readonly<Record<number, NodeId>>;
  /** Nodes carried whole, with their positions. */
  readonly whole: readonly (readonly [position: number, node: WireNode])[];
}

/** One letter per value of each column. */
const KINDS: readonly (readonly [NodeKind, string])[] = [
  ["root", "r"],
  ["user", "u"],
  ["assistant", "a"],
  ["tool", "t"],
  ["summary", "s"],
  ["notice", "n"],
];
const STATUSES: readonly (readonly [NodeStatus, string])[] = [
  ["complete", "c"],
  ["streaming", "s"],
  ["interrupted", "i"],
  ["error", "e"],
];
const PARTIALS: readonly (readonly [WirePartial | "whole", string])[] = [
  ["whole", "-"],
  ["reads", "r"],
  ["skeleton", "s"],
];

const LETTER_OF_KIND = new Map(KINDS);
const LETTER_OF_STATUS = new Map(STATUSES);
const LETTER_OF_PARTIAL = new Map(PARTIALS);
const KIND_OF = new Map(KINDS.map(([k, v]) => [v, k]));
const STATUS_OF = new Map(STATUSES.map(([k, v]) => [v, k]));
const PARTIAL_OF = new Map(PARTIALS.map(([k, v]) => [v, k]));

/** Shared by every unpacked node that has none (nodes are never changed in place). */
const NO_METADATA: NodeMetadata = Object.freeze({});
const NO_READS: readonly NodeId[] = Object.freeze([]);

const isEmpty = (o: object) => Object.keys(o).length === 0;

/** A character past Latin-1: V8 holds a string with one in two bytes a character. */
const WIDE_CHARACTER = /[\u0100-\uffff]/;

/**
 * `n` as a small integer where it is one. In Chromium, unpacking a 100,000-node page left
 * `seq` and `tokenCount` stored as doubles — a 12-byte box per field and node (2.4 MB) —
 * once the unpacking code was optimised and met one number it held as a double; the
 * bitwise form is an integer to the optimiser, so every node keeps its counts inline.
 * Values past 2^31 (never a seq or a token count in practice) pass unchanged.
 */
const inline = (n: number): number => ((n | 0) === n ? n | 0 : n);

/** Whether `value - from` added back to `from` gives `value` exactly. */
const isExactStep = (value: number, from: number) =>
  Number.isSafeInteger(value) && !Object.is(value, -0) && Number.isSafeInteger(value - from);

/** A timestamp in ms when `iso` is exactly what `toISOString` writes for it; else null. */
function exactTime(iso: string): number | null {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso ? ms : null;
}

export function packLedger(sessionId: SessionId, nodes: readonly WireNode[]): PackedLedger {
  const position = new Map<string, number>();
  const ids: string[] = [];
  const predecessor: number[] = [];
  const outer: Record<number, NodeId> = {};
  const seq: number[] = [];
  const kind: string[] = [];
  const status: string[] = [];
  const partial: string[] = [];
  const content: string[] = [];
  const wide: string[] = [];
  const contentLengths: number[] = [];
  const tokenCounts: number[] = [];
  const time: number[] = [];
  const metadata: Record<number, NodeMetadata> = {};
  const reads: Record<number, readonly NodeId[]> = {};
  const caller: Record<number, NodeId> = {};
  const whole: [number, WireNode][] = [];
  let lastSeq = 0;
  let lastTime = 0;
  let lastCreatedAt: string | null = null;
  nodes.forEach((node, at) => {
    const predAt = node.predecessorId === null ? -1 : position.get(node.predecessorId);
    // Nodes written in one millisecond share a timestamp: it is checked once.
    const ms = node.createdAt === lastCreatedAt ? lastTime : exactTime(node.createdAt);
    position.set(node.id, at);
    const fits =
      node.sessionId === sessionId &&
      !node.id.includes(",") &&
      node.id !== "" &&
      ms !== null &&
      LETTER_OF_KIND.has(node.kind) &&
      LETTER_OF_STATUS.has(node.status) &&
      LETTER_OF_PARTIAL.has(node.partial ?? "whole") &&
      (node.partial !== undefined || !("partial" in node)) &&
      // Differences add back up exactly only between safe integers.
      isExactStep(node.seq, lastSeq) &&
      isExactStep(ms, lastTime) &&
      // The page's payload sends a long string as UTF-8, where a lone surrogate cannot be.
      // (`isWellFormed` is that test, about 6× faster than a /\p{Cs}/u regex per node.)
      node.content.isWellFormed();
    if (!fits) {
      whole.push([at, node]);
      return;
    }
    const i = ids.length;
    ids.push(node.id);
    if (predAt === undefined) {
      predecessor.push(0);
      // Not undefined: checked above (an id of `position` is only ever a string).
      if (node.predecessorId !== null) outer[i] = node.predecessorId;
    } else predecessor.push(predAt + 1);
    seq.push(node.seq - lastSeq);
    lastSeq = node.seq;
    kind.push(LETTER_OF_KIND.get(node.kind) ?? "");
    status.push(LETTER_OF_STATUS.get(node.status) ?? "");
    partial.push(LETTER_OF_PARTIAL.get(node.partial ?? "whole") ?? "");
    if (WIDE_CHARACTER.test(node.content)) {
      wide.push(node.content);
      contentLengths.push(-node.content.length);
    } else {
      content.push(node.content);
      contentLengths.push(node.content.length);
    }
    tokenCounts.push(node.tokenCount);
    time.push(ms - lastTime);
    lastTime = ms;
    lastCreatedAt = node.createdAt;
    if (!isEmpty(node.metadata)) metadata[i] = node.metadata;
    if (node.reads.length > 0) reads[i] = node.reads;
    if (node.callerId !== null) caller[i] = node.callerId;
  });
  return {
    sessionId,
    count: nodes.length,
    ids: ids.join(","),
    predecessor,
    outer,
    seq,
    kind: kind.join(""),
    status: status.join(""),
    partial: partial.join(""),
    content: content.join(""),
    wide: wide.join(""),
    contentLengths,
    tokens: tokenCounts,
    time,
    metadata,
    reads,
    caller,
    whole,
  };
}

function letter<T>(map: ReadonlyMap<string, T>, code: string | undefined, what: string): T {
  const value = code === undefined ? undefined : map.get(code);
  if (value === undefined) throw new Error(`packed ledger: unknown ${what} ${code}`);
  return value;
}

/** The nodes {@link packLedger} was given, in their order. */
export function unpackLedger(packed: PackedLedger): WireNode[] {
  const out: WireNode[] = new Array<WireNode>(packed.count);
  for (const [at, node] of packed.whole) out[at] = node;
  const ids = packed.ids === "" ? [] : packed.ids.split(",");
  let at = 0;
  let seq = 0;
  let ms = 0;
  let createdAt = "";
  let from = 0;
  let fromWide = 0;
  // One string per predecessor outside the page: the many versions under one message share it.
  const outer = new Map<string, NodeId>();
  ids.forEach((raw, i) => {
    while (out[at] !== undefined) at += 1;
    const p = packed.predecessor[i] ?? 0;
    const predecessor = p === 0 ? null : out[p - 1];
    if (predecessor === undefined) throw new Error(`packed ledger: no predecessor for ${raw}`);
    let predecessorId = predecessor === null ? null : predecessor.id;
    const named = predecessor === null ? packed.outer[i] : undefined;
    if (named !== undefined) {
      predecessorId = outer.get(named) ?? named;
      outer.set(named, predecessorId);
    }
    seq += packed.seq[i] ?? 0;
    const delta = packed.time[i] ?? 0;
    // Consecutive nodes written in the same millisecond share one string.
    if (delta !== 0 || createdAt === "") createdAt = new Date((ms += delta)).toISOString();
    const partial = letter(PARTIAL_OF, packed.partial[i], "partial");
    const length = packed.contentLengths[i] ?? 0;
    let content: string;
    if (length < 0) {
      content = packed.wide.slice(fromWide, fromWide - length);
      fromWide -= length;
    } else {
      content = packed.content.slice(from, from + length);
      from += length;
    }
    const node: WireNode = {
      id: asNodeId(raw),
      sessionId: packed.sessionId,
      predecessorId,
      seq: inline(seq),
      kind: letter(KIND_OF, packed.kind[i], "kind"),
      content,
      status: letter(STATUS_OF, packed.status[i], "status"),
      callerId: packed.caller[i] ?? null,
      metadata: packed.metadata[i] ?? NO_METADATA,
      reads: packed.reads[i] ?? NO_READS,
      tokenCount: tokens(inline(packed.tokens[i] ?? 0)),
      createdAt,
      ...(partial === "whole" ? {} : { partial }),
    };
    out[at] = node;
    at += 1;
  });
  return out;
}
