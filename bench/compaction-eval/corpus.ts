/**
 * The synthetic corpus of `npm run eval:compaction`: long conversations in five domains,
 * each with planted facts, artifacts, decisions (one of them sometimes revised later) and
 * pending asks, and one probe per plant. Generated from a seed per conversation, so the
 * files in `corpus/` can be checked against this generator (tests/unit/eval).
 */
import type { Domain, Plant, PlantKind } from "./domain";
import { billing } from "./domains/billing";
import { conference } from "./domains/conference";
import { kitchen } from "./domains/kitchen";
import { mobile } from "./domains/mobile";
import { pipeline } from "./domains/pipeline";
import { containsValue } from "../../lib/audit/find-value";
import { ACKS, COMMON_SLOTS, FOLLOW_UPS } from "./pools";
import { createRng, seedOf, type Rng } from "./rng";

export const DOMAINS: readonly Domain[] = [billing, pipeline, mobile, kitchen, conference];
/** Conversations per domain: 5 × 4 = 20. */
export const VARIANTS = 4;
/** Plants per conversation, by kind. */
const PLANTS_PER_KIND: Readonly<Record<PlantKind, number>> = {
  fact: 4,
  artifact: 3,
  decision: 3,
  pending: 2,
};

export interface CorpusMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

export interface CorpusProbe {
  readonly id: string;
  readonly kind: PlantKind;
  readonly question: string;
  /** An answer (or a context) retains the plant iff it contains every key. */
  readonly keys: readonly string[];
  /** Index in `messages` of the message that states the current value. */
  readonly source: number;
  /** A revised decision: the keys of the value it replaced, and where that was said. */
  readonly stale?: { readonly keys: readonly string[]; readonly source: number };
}

export interface CorpusConversation {
  readonly id: string;
  readonly domain: string;
  readonly title: string;
  readonly system: string;
  readonly messages: readonly CorpusMessage[];
  readonly probes: readonly CorpusProbe[];
}

/** `{slot}` from the slots, `{{a|b}}` one of the alternatives, `{value}` the value. */
function fill(template: string, rng: Rng, domain: Domain, value?: string): string {
  return template
    .replace(/\{\{([^}]+)\}\}/g, (_, alternatives: string) => rng.pick(alternatives.split("|")))
    .replace(/\{(\w+)\}/g, (whole, name: string) => {
      if (name === "value") {
        if (value === undefined) throw new Error(`No value for ${template}`);
        return value;
      }
      const slot = domain.slots[name] ?? COMMON_SLOTS[name];
      if (slot === undefined) throw new Error(`Unknown slot {${name}} in ${domain.key}`);
      return slot(rng);
    });
}

interface Placed {
  readonly plant: Plant;
  readonly value: string;
  readonly keys: readonly string[];
  readonly at: number;
  readonly revision?: {
    readonly value: string;
    readonly keys: readonly string[];
    readonly at: number;
  };
}

/** The free exchange nearest `wanted` within [min, max]; `wanted` itself when none is free. */
function freeSlot(taken: ReadonlySet<number>, wanted: number, min: number, max: number): number {
  for (let d = 0; d <= max - min; d++) {
    for (const at of [wanted + d, wanted - d]) {
      if (at >= min && at <= max && !taken.has(at)) return at;
    }
  }
  return wanted;
}

/** Picks the plants of one conversation and the exchanges they land in. */
function place(domain: Domain, rng: Rng, exchanges: number): Placed[] {
  const chosen: Plant[] = [];
  for (const [kind, n] of Object.entries(PLANTS_PER_KIND) as [PlantKind, number][]) {
    chosen.push(...rng.shuffle(domain.plants.filter((p) => p.kind === kind)).slice(0, n));
  }
  // Spread over the conversation (after the opening exchanges, before the last few), one
  // plant per exchange, in a random order of plants.
  const order = rng.shuffle(chosen);
  const first = 2;
  const last = exchanges - 6;
  const step = (last - first) / order.length;
  const taken = new Set<number>();
  const placed: Placed[] = [];
  const used: string[] = [];
  const draw = (fn: (r: Rng) => string, keysOf: (v: string) => readonly string[]) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const value = fn(rng);
      const keys = keysOf(value);
      if (!used.some((u) => keys.some((k) => containsValue(u, k) || containsValue(k, u)))) {
        used.push(...keys);
        return { value, keys };
      }
    }
    throw new Error(`Could not draw a distinct value in ${domain.key}`);
  };
  order.forEach((plant, i) => {
    let at = Math.min(
      last,
      first + Math.floor(i * step) + rng.int(0, Math.max(0, Math.floor(step) - 1)),
    );
    at = freeSlot(taken, at, first, exchanges - 2);
    taken.add(at);
    const keysOf = plant.keys ?? ((v: string) => [v]);
    const { value, keys } = draw(plant.value, keysOf);
    let revision: Placed["revision"];
    if (plant.revise && rng.chance(0.6)) {
      const later = freeSlot(taken, at + rng.int(8, 20), at + 1, exchanges - 2);
      if (later > at && later <= exchanges - 2 && !taken.has(later)) {
        taken.add(later);
        revision = { ...draw(plant.revise.value, plant.revise.keys ?? keysOf), at: later };
      }
    }
    placed.push({ plant, value, keys, at, ...(revision ? { revision } : {}) });
  });
  return placed;
}

/** An assistant reply: an opener and `n` filler lines, with `planted` among them. */
function assistantReply(domain: Domain, rng: Rng, n: number, planted?: string): string {
  const lines = rng
    .shuffle(domain.lines)
    .slice(0, n)
    .map((line) => fill(line, rng, domain));
  if (planted !== undefined) {
    // Mostly buried after the first line, as real answers bury the detail that matters.
    const at = rng.chance(0.25) ? 0 : rng.int(1, lines.length);
    lines.splice(at, 0, planted);
  }
  const paragraphs = [fill(rng.pick(ACKS), rng, domain)];
  // Two or three lines a paragraph reads like prose rather than a list.
  for (let i = 0; i < lines.length; i += 3) paragraphs.push(lines.slice(i, i + 3).join(" "));
  return paragraphs.join("\n\n");
}

function userMessage(domain: Domain, rng: Rng, body: string): string {
  const lead = rng.pick(FOLLOW_UPS);
  return lead === "" ? body : `${lead} ${body}`;
}

/** One conversation of the corpus. */
export function generateConversation(domain: Domain, variant: number): CorpusConversation {
  const id = `${domain.key}-${variant + 1}`;
  const rng = createRng(seedOf(id));
  const exchanges = rng.int(64, 76);
  const placed = place(domain, rng, exchanges);
  const keys = placed.flatMap((p) => [...p.keys, ...(p.revision?.keys ?? [])]);
  const clean = (text: string) => !keys.some((k) => containsValue(text, k));
  /** Filler that never mentions a planted value by chance. */
  const filler = (make: () => string): string => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const text = make();
      if (clean(text)) return text;
    }
    throw new Error(`Filler of ${id} keeps colliding with a planted value`);
  };

  const messages: CorpusMessage[] = [];
  const sources = new Map<string, number>();
  for (let i = 0; i < exchanges; i++) {
    const plant = placed.find((p) => p.at === i);
    const revised = placed.find((p) => p.revision?.at === i);
    if (i === 0) {
      messages.push({ role: "user", content: domain.opener });
      messages.push({
        role: "assistant",
        content: filler(() => assistantReply(domain, rng, rng.int(6, 9))),
      });
      continue;
    }
    if (revised?.revision && revised.plant.revise) {
      const say = fill(revised.plant.revise.say, rng, domain, revised.revision.value);
      sources.set(`${revised.plant.say}#revision`, messages.length);
      messages.push({ role: "user", content: userMessage(domain, rng, say) });
      messages.push({
        role: "assistant",
        content: filler(() => assistantReply(domain, rng, rng.int(4, 7))),
      });
      continue;
    }
    if (plant?.plant.by === "user") {
      const say = fill(plant.plant.say, rng, domain, plant.value);
      const ask = rng.chance(0.5)
        ? ` ${filler(() => fill(rng.pick(domain.asks), rng, domain))}`
        : "";
      sources.set(plant.plant.say, messages.length);
      messages.push({ role: "user", content: userMessage(domain, rng, say + ask) });
      messages.push({
        role: "assistant",
        content: filler(() => assistantReply(domain, rng, rng.int(4, 8))),
      });
      continue;
    }
    if (plant?.plant.by === "assistant") {
      const lead = plant.plant.lead ?? rng.pick(domain.asks);
      messages.push({ role: "user", content: userMessage(domain, rng, fill(lead, rng, domain)) });
      const say = fill(plant.plant.say, rng, domain, plant.value);
      sources.set(plant.plant.say, messages.length);
      const reply = (() => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const text = assistantReply(domain, rng, rng.int(4, 8), say);
          const others = keys.filter((k) => !plant.keys.includes(k));
          if (!others.some((k) => containsValue(text, k))) return text;
        }
        throw new Error(`Reply of ${id} keeps colliding`);
      })();
      messages.push({ role: "assistant", content: reply });
      continue;
    }
    messages.push({
      role: "user",
      content: filler(() => userMessage(domain, rng, fill(rng.pick(domain.asks), rng, domain))),
    });
    messages.push({
      role: "assistant",
      content: filler(() => assistantReply(domain, rng, rng.int(4, 8))),
    });
  }

  const probes: CorpusProbe[] = placed
    .map((p, i): CorpusProbe => {
      const source = sources.get(p.plant.say) ?? -1;
      const revision = p.revision
        ? { keys: p.revision.keys, source: sources.get(`${p.plant.say}#revision`) ?? -1 }
        : undefined;
      return {
        id: `${id}/p${i + 1}`,
        kind: p.plant.kind,
        question: p.plant.question,
        keys: revision ? revision.keys : p.keys,
        source: revision ? revision.source : source,
        ...(revision ? { stale: { keys: p.keys, source } } : {}),
      };
    })
    .sort((a, b) => a.source - b.source);
  checkPlanted(id, messages, probes);
  return { id, domain: domain.key, title: domain.title, system: domain.system, messages, probes };
}

/**
 * Every probe's keys are said in exactly one message, the one it names (a replaced value
 * only where it was planted): otherwise a lookup could find an answer the plant never gave.
 */
function checkPlanted(
  id: string,
  messages: readonly CorpusMessage[],
  probes: readonly CorpusProbe[],
): void {
  const where = (keys: readonly string[]) =>
    messages.flatMap((m, i) => (keys.every((k) => containsValue(m.content, k)) ? [i] : []));
  for (const probe of probes) {
    for (const [keys, source] of [
      [probe.keys, probe.source],
      ...(probe.stale ? [[probe.stale.keys, probe.stale.source] as const] : []),
    ] as const) {
      const found = where(keys);
      if (found.length !== 1 || found[0] !== source) {
        throw new Error(
          `${id}: ${keys.join(", ")} is said in messages ${found.join(", ")}, not only ${source}`,
        );
      }
    }
  }
}

/** The whole corpus, in a fixed order. */
export function generateCorpus(): CorpusConversation[] {
  return DOMAINS.flatMap((domain) =>
    Array.from({ length: VARIANTS }, (_, v) => generateConversation(domain, v)),
  );
}
