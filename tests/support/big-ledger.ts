/**
 * A big session as an export file (`spindle.ledger` v1), for the big-import test, the
 * big-session benchmarks and the e2e flow: a HEAD spine of `spine` nodes (ROOT, then user
 * and assistant turns; an odd length ends on a reply) padded to `total` nodes with dead forks — short chains hanging off
 * spine nodes, as retries and edits leave them. Deterministic: the same arguments give the
 * same file.
 */
export interface BigLedgerOptions {
  readonly total: number;
  /** Nodes on HEAD's spine, ROOT included (default 201: HEAD is an assistant reply). */
  readonly spine?: number;
  /** Words of text per node (default 40). */
  readonly words?: number;
  readonly title?: string;
}

/** A small deterministic generator (an LCG), so the same arguments give the same file. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * A vocabulary of 2,000 made-up words of 2–9 letters: text drawn from it compresses about
 * as well as prose does, so byte counts over gzip are not flattered by repetition.
 */
const VOCABULARY = (() => {
  const next = lcg(7);
  const letters = "etaoinshrdlucmfwypvbgkqjxz";
  return Array.from({ length: 2_000 }, () => {
    const length = 2 + Math.floor(next() * 8);
    let word = "";
    // Skewed towards common letters, as in English.
    for (let k = 0; k < length; k++) word += letters[Math.floor(next() ** 2 * letters.length)];
    return word;
  });
})();

export interface BigLedgerNode {
  readonly id: string;
  readonly predecessorId: string | null;
  readonly seq: number;
  readonly kind: "root" | "user" | "assistant";
  readonly content: string;
  readonly status: "complete";
  readonly callerId: null;
  readonly metadata: Record<string, never>;
  readonly reads: readonly string[];
  readonly createdAt: string;
}

export interface BigLedgerFile {
  readonly format: "spindle.ledger";
  readonly version: 1;
  readonly session: { readonly title: string; readonly headId: string; readonly meta: object };
  readonly nodes: readonly BigLedgerNode[];
}

/** The ids of the ledger's nodes, by index: `n0` is ROOT, `n1…n(spine-1)` the spine. */
export const bigLedgerId = (i: number) => `n${i}`;

export function bigLedger(options: BigLedgerOptions): BigLedgerFile {
  const spine = options.spine ?? 201;
  const words = options.words ?? 40;
  const text = (i: number) => {
    const next = lcg(i + 1);
    return Array.from(
      { length: words },
      () => VOCABULARY[Math.floor(next() ** 1.5 * VOCABULARY.length)],
    ).join(" ");
  };
  const nodes: BigLedgerNode[] = [];
  const push = (i: number, predecessor: number | null, kind: BigLedgerNode["kind"]) =>
    nodes.push({
      id: bigLedgerId(i),
      predecessorId: predecessor === null ? null : bigLedgerId(predecessor),
      seq: i,
      kind,
      content: kind === "root" ? "You are a helpful assistant." : `${i}: ${text(i)}`,
      status: "complete",
      callerId: null,
      metadata: {},
      reads: [],
      createdAt: "2026-12-01T00:00:00.000Z",
    });
  push(0, null, "root");
  for (let i = 1; i < Math.min(spine, options.total); i++) {
    push(i, i - 1, i % 2 === 1 ? "user" : "assistant");
  }
  // Dead forks: a chain of 1–6 turns under a spine node, alternating kinds from the right
  // one (a fork under a user turn starts with an assistant reply, and the other way round).
  let i = nodes.length;
  let fork = 0;
  while (i < options.total) {
    const at = 1 + ((fork * 7919) % Math.max(1, spine - 1));
    const length = 1 + ((fork * 31) % 6);
    let predecessor = at - 1;
    let kind: BigLedgerNode["kind"] = at % 2 === 1 ? "user" : "assistant";
    for (let k = 0; k < length && i < options.total; k++, i++) {
      push(i, predecessor, kind);
      predecessor = i;
      kind = kind === "user" ? "assistant" : "user";
    }
    fork++;
  }
  return {
    format: "spindle.ledger",
    version: 1,
    session: {
      title: options.title ?? `big ${options.total}`,
      headId: bigLedgerId(Math.min(spine, options.total) - 1),
      meta: {},
    },
    nodes,
  };
}
