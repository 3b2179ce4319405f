/**
 * Word pools the corpus draws from. Planted values come from pools the filler never uses
 * (`PLANTED_*`), so a probe's answer appears in its conversation only where it was planted;
 * the generator still checks that and draws again on a collision.
 */
import type { Rng } from "./rng";
import type { SlotFn } from "./domain";

const FIRST = [
  "Alex",
  "Sam",
  "Jordan",
  "Taylor",
  "Morgan",
  "Casey",
  "Riley",
  "Jamie",
  "Robin",
  "Chris",
  "Dana",
  "Lee",
  "Pat",
  "Kim",
  "Drew",
  "Avery",
];
const LAST = [
  "Miller",
  "Brown",
  "Wilson",
  "Moore",
  "Clark",
  "Hall",
  "Young",
  "King",
  "Wright",
  "Green",
  "Baker",
  "Adams",
  "Nelson",
  "Carter",
  "Turner",
  "Parker",
];
const PLANTED_FIRST = [
  "Priya",
  "Tomasz",
  "Ngozi",
  "Haruki",
  "Ines",
  "Dmitri",
  "Aaliyah",
  "Bjorn",
  "Leilani",
  "Oluwaseun",
  "Marisol",
  "Teodor",
  "Yusra",
  "Kenji",
  "Solveig",
  "Rafaela",
  "Emeka",
  "Anouk",
  "Siddharth",
  "Zofia",
];
const PLANTED_LAST = [
  "Raman",
  "Kowalczyk",
  "Okafor",
  "Tanabe",
  "Valdivia",
  "Volkov",
  "Haddad",
  "Lindqvist",
  "Kahananui",
  "Adeyemi",
  "Quintero",
  "Petrescu",
  "Mahfouz",
  "Morimoto",
  "Eriksen",
  "Sardinha",
  "Nwosu",
  "Verhoeven",
  "Bhattacharya",
  "Wisniewska",
];
const COMPANY = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne"];
const PLANTED_COMPANY = [
  "Northwind",
  "Contoso",
  "Fabrikam",
  "Tailspin",
  "Woodgrove",
  "Litware",
  "Adatum",
  "Proseware",
  "Lucerne",
  "Wingtip",
  "Fourth Coffee",
  "Alpine Ski House",
];
const WEEKDAY = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
const MONTH = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** Slots every domain may use in its filler. */
export const COMMON_SLOTS: Readonly<Record<string, SlotFn>> = {
  name: (r) => `${r.pick(FIRST)} ${r.pick(LAST)}`,
  first: (r) => r.pick(FIRST),
  company: (r) => r.pick(COMPANY),
  weekday: (r) => r.pick(WEEKDAY),
  month: (r) => r.pick(MONTH),
  n: (r) => String(r.int(2, 9)),
  nn: (r) => String(r.int(12, 95)),
  pct: (r) => `${r.int(2, 60)}%`,
  hours: (r) => `${r.int(2, 9)} hours`,
  days: (r) => `${r.int(2, 9)} days`,
};

/** Values for plants: distinctive, never produced by the filler slots. */
export const planted = {
  person: (r: Rng) => `${r.pick(PLANTED_FIRST)} ${r.pick(PLANTED_LAST)}`,
  company: (r: Rng) => r.pick(PLANTED_COMPANY),
  /** A date the filler never names (it only says weekdays and months). */
  date: (r: Rng) => `${r.pick(MONTH)} ${r.int(3, 28)}`,
  /** A number with a unit, e.g. `180 ms`: three digits, so it cannot hide inside filler. */
  measure:
    (unit: string, min = 101, max = 989) =>
    (r: Rng) =>
      `${r.int(min, max)} ${unit}`,
  /** A thousands-grouped count, e.g. `4,321`. */
  count: (min: number, max: number) => (r: Rng) => r.int(min, max).toLocaleString("en-US"),
  money:
    (min: number, max: number, step = 50) =>
    (r: Rng) =>
      `$${(Math.round(r.int(min, max) / step) * step).toLocaleString("en-US")}`,
  ticket: (prefix: string) => (r: Rng) => `${prefix}-${r.int(1200, 9899)}`,
  word: (words: readonly string[]) => (r: Rng) => r.pick(words),
};

/** Short openers of an assistant reply. */
export const ACKS = [
  "Good question.",
  "Sure.",
  "That makes sense.",
  "Here is how I would approach it.",
  "Right, let's look at that.",
  "OK.",
  "Happy to help with that.",
  "Yes, that's worth settling now.",
  "Let me break that down.",
  "Fair point.",
];

/** Short openers of a user message that follows up. */
export const FOLLOW_UPS = ["Thanks.", "OK.", "Got it.", "Makes sense.", "Great.", "Alright.", ""];

/**
 * A plant value drawn from phrases, each with the distinctive words an answer must contain
 * (a paraphrase keeps "rollback runbook", not "for the on-call team").
 */
export function phrases(pairs: readonly (readonly [string, string])[]): {
  value: SlotFn;
  keys: (value: string) => readonly string[];
} {
  return {
    value: (r) => r.pick(pairs)[0],
    keys: (value) => [pairs.find(([text]) => text === value)?.[1] ?? value],
  };
}
