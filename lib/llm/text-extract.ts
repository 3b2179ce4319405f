/**
 * The extractive summariser's reading skills: sentences, questions, and the artifacts a
 * conversation mentions (code, file names, numbers, URLs). Heuristics, deliberately simple
 * and deterministic; each one says what it ignores and why.
 */
import type { Artifact } from "./summary-document";

const FENCE = /```([\w+-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`)\]]+/g;
const FILE_PATTERN =
  /(?<![\w/.-])(?:[\w.-]+\/)*[\w-][\w.-]*\.(?:tsx?|jsx?|mjs|cjs|json|md|py|rs|go|java|kt|swift|c|cc|cpp|h|hpp|cs|rb|php|sh|ya?ml|toml|ini|sql|css|scss|html|txt|csv|env|lock|prisma|xml|proto|dockerfile)\b/gi;
/**
 * Thousands-grouped, decimal, or two-plus-digit numbers with an optional unit. Single digits
 * are left out: they are mostly list markers and counts of little use later.
 */
const NUMBER_PATTERN =
  /(?<![\w.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{2,})(?:\s?(?:%|ms|kb|mb|gb|tb|k|s))?(?!\w)/gi;

const STOPWORDS = new Set(
  (
    "the and for you your can could would should will with that this from have has had what " +
    "when where which who how why are was were been does did not but about into than then " +
    "them they there their also just like some such only more most make any all its it's"
  ).split(" "),
);

/** Text with fenced code blocks removed: prose heuristics must not read code as sentences. */
export function withoutCode(text: string): string {
  return text.replace(FENCE, " ").replace(/`[^`\n]*`/g, (m) => m.slice(1, -1));
}

/** Sentences of prose, markdown markers stripped; newlines end sentences too. */
export function sentences(text: string): string[] {
  return withoutCode(text)
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*|\d+[.)]\s+)/, "").trim())
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[^\s])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The first sentence, capped at `maxWords` words with an ellipsis when cut. A very short
 * opener ("Sure.", "Done!") carries nothing, so the next sentence is joined to it.
 */
export function firstSentence(text: string, maxWords = 40): string | undefined {
  const all = sentences(text);
  const [head, next] = all;
  if (head === undefined) return undefined;
  const first = head.split(/\s+/).length < 3 && next !== undefined ? `${head} ${next}` : head;
  const words = first.split(/\s+/);
  return words.length <= maxWords ? first : `${words.slice(0, maxWords).join(" ")} …`;
}

/** Sentences that end in a question mark. */
export function questions(text: string): string[] {
  return sentences(text).filter((s) => s.endsWith("?"));
}

/** Content words (3+ letters, not stopwords), lower-cased and crudely stemmed. */
export function keywords(text: string): Set<string> {
  const found = text.toLowerCase().match(/\p{L}[\p{L}\p{N}]{2,}/gu) ?? [];
  return new Set(
    found
      .filter((w) => !STOPWORDS.has(w))
      .map((w) => {
        const stem = w.replace(/(ing|ed|es|s)$/, "");
        return stem.length >= 3 ? stem : w;
      }),
  );
}

/**
 * A question counts as answered when some later assistant text shares a content word with
 * it. Crude, but it only ever decides whether a question stays listed as open.
 */
export function isAnswered(question: string, laterAssistantTexts: readonly string[]): boolean {
  const wanted = keywords(question);
  if (wanted.size === 0) return laterAssistantTexts.length > 0;
  return laterAssistantTexts.some((t) => [...keywords(t)].some((w) => wanted.has(w)));
}

function unique<T>(values: readonly T[], key: (v: T) => string): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = key(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Code blocks' first lines, file names, URLs and numbers, in order of appearance. */
export function artifacts(text: string): Artifact[] {
  const found: Artifact[] = [];
  for (const match of text.matchAll(FENCE)) {
    const lang = match[1] ?? "";
    const firstLine = (match[2] ?? "")
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim();
    if (firstLine !== undefined) {
      const shown = firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine;
      found.push({ kind: "code", value: lang ? `(${lang}) ${shown}` : shown });
    }
  }
  const prose = withoutCode(text);
  const urls = [...prose.matchAll(URL_PATTERN)].map((m) => m[0].replace(/[.,;:!?]+$/, ""));
  const withoutUrls = prose.replace(URL_PATTERN, " ");
  const files = [...withoutUrls.matchAll(FILE_PATTERN)].map((m) => m[0]);
  const bare = withoutUrls.replace(FILE_PATTERN, " ");
  const numbers = [...bare.matchAll(NUMBER_PATTERN)].map((m) => m[0]);
  found.push(...files.map((value) => ({ kind: "file" as const, value })));
  found.push(...numbers.map((value) => ({ kind: "number" as const, value })));
  found.push(...urls.map((value) => ({ kind: "url" as const, value })));
  return unique(found, (a) => `${a.kind}:${a.value}`);
}

/** Merges artifact lists, first occurrence wins. */
export function mergeArtifacts(...lists: readonly (readonly Artifact[])[]): Artifact[] {
  return unique(lists.flat(), (a) => `${a.kind}:${a.value}`);
}

/** One line, whitespace collapsed: for fields that must stay on a single line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
