/**
 * The probes of a summary audit, extracted from the originals a summary stands in for: the
 * four kinds of Factory's evaluation of context compression — facts (names, numbers,
 * dates), artifacts (files, identifiers, URLs), decisions, and pending next steps. Each
 * probe is a cloze of the sentence it came from: the value blanked out, asked back. The
 * heuristics are deliberately literal and deterministic (the same originals always give
 * the same probes); docs/decisions.md says what they miss.
 */
import type { NodeId } from "../engine/ids";
import { PROBE_KINDS, type ProbeKind } from "../engine/summary-audit";
import { artifacts, keywords, sentences } from "../llm/text-extract";
import { containsValue, normaliseForLookup } from "./find-value";

export { PROBE_KINDS, type ProbeKind };

/** One message of the originals. */
export interface ProbeSource {
  readonly id: NodeId;
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string;
}

export interface Probe {
  readonly kind: ProbeKind;
  /** The original message it was extracted from. */
  readonly sourceId: NodeId;
  /** The question asked: the sentence with its value blanked out. */
  readonly question: string;
  /** The values an answer must give; a context retains the probe iff it contains them all. */
  readonly keys: readonly string[];
  /** The sentence the probe came from, as the originals say it. */
  readonly sentence: string;
  /**
   * How telling the probe is (higher first when probes are chosen): a date, an amount, a
   * full name or a file outranks a lone capitalised word; a value the originals repeat
   * many times is easy to keep and ranks lower.
   */
  readonly weight: number;
}

const MONTHS =
  "January|February|March|April|May|June|July|August|September|October|November|December";
const DATE = new RegExp(`\\b(?:${MONTHS}) \\d{1,2}(?:, \\d{4})?\\b`, "g");
/** Two or more capitalised words in a row: people, companies, products. */
const NAME = /\b\p{Lu}[\p{Ll}'-]+(?: (?:de |van |von |da )?\p{Lu}[\p{Ll}'-]+)+/gu;
/** One word with a capital inside or after a sentence's first word: `Northwind`, `BigQuery`. */
const PROPER = /(?<=[a-z,;:] )\p{Lu}[\p{L}\p{N}]*[\p{Ll}\p{N}][\p{L}\p{N}]*/gu;
const TICKET = /\b[A-Z]{2,}(?:-[A-Z0-9]+)*-\d+(?:-[A-Z0-9]+)*\b/g;
const IDENTIFIER = /(?<![\w./-])[A-Za-z][\w-]*(?:[._][\w-]+)*[._][\w-]+(?![\w/])/g;
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
const CHANNEL = /(?<![\w#])#[a-z][\w-]{2,}/g;
const REFERENCE = /\b[A-Z]{1,4}\/\d{2,4}\/\d{2,}\b/g;

const DECISION =
  /\b(decided|decision|agreed|settled|settle it|let's go with|we'll go with|going with|we chose|switching to|change of plan)\b/i;
const PENDING =
  /\b(remind me|don't let me forget|don't forget|still need|still have to|still to do|not done yet|haven't done|open item|keep it on (?:the|your) list|not started|still open)\b/i;

/** Capitalised words that are sentence furniture, not names. */
const NOT_NAMES = new Set(
  (
    "I OK Okay Yes No The This That These Those We You It Its Our Your My Thanks Thank Sure " +
    "Great Good Right Then Also And But So Let Here There What When Where Which Who How Why " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday " +
    MONTHS.replaceAll("|", " ")
  ).split(" "),
);

/** Probes of every kind, in the order of the originals; duplicates (same keys) dropped. */
export function extractProbes(sources: readonly ProbeSource[]): Probe[] {
  const rarity = wordCounts(sources);
  const found: Probe[] = [];
  const seen = new Set<string>();
  const add = (
    kind: ProbeKind,
    source: ProbeSource,
    sentence: string,
    keys: string[],
    weight: number,
  ) => {
    const key = `${kind}:${keys.map(normaliseForLookup).sort().join("\u0000")}`;
    if (seen.has(key)) return;
    seen.add(key);
    const mentions = sources.filter((s) => keys.every((k) => containsValue(s.content, k))).length;
    found.push(cloze(kind, source.id, sentence, keys, mentions > 2 ? weight - 1 : weight));
  };
  for (const source of sources) {
    if (source.role === "system") continue;
    for (const sentence of sentences(source.content)) {
      for (const { value, weight } of factValues(sentence)) {
        add("fact", source, sentence, [value], weight);
      }
      for (const { value, weight } of artifactValues(sentence)) {
        add("artifact", source, sentence, [value], weight);
      }
      const decision = objectOf(sentence, DECISION, rarity);
      if (decision.length > 0) add("decision", source, sentence, decision, 3);
      if (source.role === "user") {
        const pending = objectOf(sentence, PENDING, rarity);
        if (pending.length > 0) add("pending", source, sentence, pending, 3);
      }
    }
  }
  return found;
}

interface Value {
  readonly value: string;
  readonly weight: number;
}

/** Names, numbers with their units, and dates a sentence states. */
function factValues(sentence: string): Value[] {
  const values: Value[] = [];
  const text = sentence.replace(DATE, (date) => {
    values.push({ value: date, weight: 3 });
    return " ";
  });
  for (const match of text.matchAll(NAME)) {
    const words = match[0].split(" ");
    // A sentence's first word is capitalised anyway: "Finance says" is not a name.
    const start = match.index === 0 || /[.!?:]\s*$/.test(text.slice(0, match.index));
    const name = start ? words.slice(1).join(" ") : match[0];
    if (name.includes(" ") && !name.split(" ").every((w) => NOT_NAMES.has(w))) {
      values.push({ value: name, weight: 3 });
    } else if (name !== "" && !NOT_NAMES.has(name) && !start) {
      values.push({ value: name, weight: 1 });
    }
  }
  for (const match of text.matchAll(PROPER)) {
    if (!NOT_NAMES.has(match[0]) && !values.some((v) => v.value.includes(match[0]))) {
      values.push({ value: match[0], weight: 1 });
    }
  }
  for (const artifact of artifacts(text)) {
    if (artifact.kind !== "number") continue;
    // An amount or a number with its unit says more than a bare count.
    const unit =
      /\D$/.test(artifact.value) || /[$€£]\s*$/.test(text.split(artifact.value)[0] ?? "");
    values.push({ value: artifact.value, weight: unit ? 3 : 2 });
  }
  return uniqueValues(values);
}

/** Files, URLs, identifiers, tickets, addresses and channels a sentence names. */
function artifactValues(sentence: string): Value[] {
  const values: Value[] = [];
  for (const artifact of artifacts(sentence)) {
    if (artifact.kind === "file" || artifact.kind === "url") {
      values.push({ value: artifact.value, weight: 3 });
    }
  }
  let rest = sentence;
  for (const pattern of [EMAIL, REFERENCE, TICKET, CHANNEL, IDENTIFIER]) {
    rest = rest.replace(pattern, (match) => {
      const value = match.replace(/[.,;:]+$/, "");
      // `tax_rates` may be ordinary vocabulary of the conversation; `billing.pg_reads_v4` is not.
      values.push({ value, weight: pattern === IDENTIFIER && !/[.\d]/.test(value) ? 2 : 3 });
      return " ";
    });
  }
  // A URL's or a file's parts are not artifacts of their own.
  return uniqueValues(values).filter(
    ({ value }, _, all) =>
      !all.some((other) => other.value !== value && other.value.includes(value)) &&
      !/^\d/.test(value),
  );
}

/**
 * What a decision or a request is about: after its trigger phrase (the last one in the
 * sentence), up to the first clause break, the last two content words that the originals
 * rarely use — "we'll copy the data with logical replication, …" gives `logical`,
 * `replication`. Empty when the clause says nothing specific.
 */
function objectOf(
  sentence: string,
  trigger: RegExp,
  counts: ReadonlyMap<string, number>,
): string[] {
  const matches = [...sentence.matchAll(new RegExp(trigger.source, "gi"))];
  const last = matches.at(-1);
  if (last === undefined) return [];
  const after = sentence.slice(last.index + last[0].length);
  const clause = after
    .replace(/^[\s:,;.!-]+/, "")
    .split(/[,;]|\b(?:rather than|instead of|because|which|so that|after all)\b|\s[-–—]\s/)[0];
  const words = (clause?.match(/[\p{L}\p{N}][\p{L}\p{N}'_/-]*/gu) ?? [])
    .map((w) => w.replace(/['-]+$/, ""))
    .filter(
      (w) =>
        (/^\d{2,}$/.test(w) || (w.length >= 4 && keywords(w).size > 0)) &&
        (counts.get(w.toLowerCase()) ?? 1) <= 3,
    );
  return words.slice(-2);
}

function wordCounts(sources: readonly ProbeSource[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const source of sources) {
    const words = new Set(
      (source.content.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'_.-]*/gu) ?? []).map((w) =>
        w.replace(/[.'-]+$/, ""),
      ),
    );
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

function cloze(
  kind: ProbeKind,
  sourceId: NodeId,
  sentence: string,
  keys: readonly string[],
  weight: number,
): Probe {
  let blanked = sentence;
  for (const key of keys) blanked = blanked.split(key).join("____");
  const blanks = keys.length === 1 ? "the blank" : "the blanks";
  return {
    kind,
    sourceId,
    question: `Fill in ${blanks} with what the conversation says: “${blanked}”`,
    keys,
    sentence,
    weight,
  };
}

function uniqueValues(values: readonly Value[]): Value[] {
  const out: Value[] = [];
  for (const v of values) {
    const same = (o: Value) => containsValue(o.value, v.value) && containsValue(v.value, o.value);
    if (v.value !== "" && !out.some(same)) out.push(v);
  }
  return out;
}

/**
 * At most `per[kind]` probes of each kind: the most telling first (by weight), ties spread
 * over the originals so a long segment is probed from start to end; answered in the
 * originals' order.
 */
export function chooseProbes(
  probes: readonly Probe[],
  per: Readonly<Record<ProbeKind, number>>,
): Probe[] {
  const chosen = new Set<Probe>();
  for (const kind of PROBE_KINDS) {
    const list = probes.filter((p) => p.kind === kind);
    const weights = [...new Set(list.map((p) => p.weight))].sort((a, b) => b - a);
    let room = per[kind];
    for (const weight of weights) {
      const tier = list.filter((p) => p.weight === weight);
      const n = Math.min(room, tier.length);
      for (let i = 0; i < n; i++) {
        const probe = tier[Math.floor((i * tier.length) / n)];
        if (probe !== undefined) chosen.add(probe);
      }
      room -= n;
      if (room === 0) break;
    }
  }
  return probes.filter((p) => chosen.has(p));
}
