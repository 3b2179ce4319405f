/**
 * The fixed structure of an extractive summary, and its round trip to text. The summariser
 * reads its own previous output back through `parseSummary`, which is how sections carry
 * forward across re-compactions; text in any other shape (an LLM-written summary) is kept
 * whole as `earlier`.
 */

export type ArtifactKind = "code" | "file" | "number" | "url";

export interface Artifact {
  readonly kind: ArtifactKind;
  readonly value: string;
}

export interface SummaryDocument {
  readonly goal: string;
  /** Every user request, oldest first, verbatim unless marked truncated. */
  readonly requests: readonly string[];
  /** Requests dropped whole to fit a budget, counted so the loss stays visible. */
  readonly omittedRequests: number;
  readonly facts: readonly string[];
  readonly artifacts: readonly Artifact[];
  readonly openQuestions: readonly string[];
  readonly nextStep: string;
  /** A previous summary that was not in this format, carried verbatim. */
  readonly earlier: string | undefined;
}

const H = {
  goal: "Goal: ",
  earlier: "Earlier summary:",
  requests: "User requests (verbatim, oldest first):",
  facts: "Decisions and key facts:",
  artifacts: "Artifacts:",
  questions: "Open questions:",
  next: "Next step: ",
} as const;

const OMITTED = /^\(… (\d+) earlier requests? omitted to fit the budget\)$/;

const ARTIFACT_LABEL: Readonly<Record<ArtifactKind, string>> = {
  code: "code",
  file: "files",
  number: "numbers",
  url: "URLs",
};

/** A list item: first line after "- ", every further line indented two spaces. */
export function renderItem(text: string): string {
  const [first = "", ...rest] = text.split("\n");
  return [`- ${first}`, ...rest.map((line) => `  ${line}`)].join("\n");
}

function renderArtifacts(artifacts: readonly Artifact[]): string[] {
  const lines = artifacts.filter((a) => a.kind === "code").map((a) => `- code: \`${a.value}\``);
  for (const kind of ["file", "number", "url"] as const) {
    const values = artifacts.filter((a) => a.kind === kind).map((a) => a.value);
    if (values.length > 0) lines.push(`- ${ARTIFACT_LABEL[kind]}: ${values.join(", ")}`);
  }
  return lines;
}

function section(heading: string, body: readonly string[]): string[] {
  return body.length === 0 ? [] : ["", heading, ...body];
}

/** The document as text. Empty sections are left out; Goal and Next step always appear. */
export function renderSummary(doc: SummaryDocument): string {
  const omitted =
    doc.omittedRequests > 0
      ? [
          `(… ${doc.omittedRequests} earlier request${doc.omittedRequests === 1 ? "" : "s"} omitted to fit the budget)`,
        ]
      : [];
  return [
    `${H.goal}${doc.goal}`,
    ...section(H.earlier, doc.earlier === undefined ? [] : [renderItem(doc.earlier)]),
    ...section(H.requests, [...omitted, ...doc.requests.map(renderItem)]),
    ...section(H.facts, doc.facts.map(renderItem)),
    ...section(H.artifacts, renderArtifacts(doc.artifacts)),
    ...section(H.questions, doc.openQuestions.map(renderItem)),
    "",
    `${H.next}${doc.nextStep}`,
  ].join("\n");
}

/** Splits a section body into items (see `renderItem`). */
function items(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.startsWith("- ")) out.push(line.slice(2));
    else if (line.startsWith("  ") && out.length > 0) out[out.length - 1] += `\n${line.slice(2)}`;
  }
  return out;
}

function parseArtifacts(lines: readonly string[]): Artifact[] {
  const out: Artifact[] = [];
  for (const item of items(lines)) {
    const code = /^code: `(.*)`$/.exec(item);
    if (code) {
      out.push({ kind: "code", value: code[1] ?? "" });
      continue;
    }
    for (const kind of ["file", "number", "url"] as const) {
      const prefix = `${ARTIFACT_LABEL[kind]}: `;
      if (item.startsWith(prefix)) {
        for (const value of item.slice(prefix.length).split(", ")) out.push({ kind, value });
      }
    }
  }
  return out;
}

/** Reads a summary this module rendered; anything else comes back as `earlier`. */
export function parseSummary(text: string): SummaryDocument {
  const lines = text.split("\n");
  const first = lines[0] ?? "";
  const last = [...lines].reverse().find((l) => l.trim() !== "") ?? "";
  if (!first.startsWith(H.goal) || !last.startsWith(H.next)) {
    return { ...emptySummary(), earlier: text.trim() };
  }
  const bodies = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(1)) {
    const heading = [H.earlier, H.requests, H.facts, H.artifacts, H.questions].find(
      (h) => line === h,
    );
    if (heading !== undefined) bodies.set(heading, (current = []));
    else if (line.startsWith(H.next)) current = undefined;
    else current?.push(line);
  }
  const requestLines = bodies.get(H.requests) ?? [];
  const omitted = requestLines.map((l) => OMITTED.exec(l)).find((m) => m !== null);
  return {
    goal: first.slice(H.goal.length),
    requests: items(requestLines),
    omittedRequests: omitted ? Number(omitted[1]) : 0,
    facts: items(bodies.get(H.facts) ?? []),
    artifacts: parseArtifacts(bodies.get(H.artifacts) ?? []),
    openQuestions: items(bodies.get(H.questions) ?? []),
    nextStep: last.slice(H.next.length),
    earlier: items(bodies.get(H.earlier) ?? [])[0],
  };
}

export function emptySummary(): SummaryDocument {
  return {
    goal: "",
    requests: [],
    omittedRequests: 0,
    facts: [],
    artifacts: [],
    openQuestions: [],
    nextStep: "",
    earlier: undefined,
  };
}

/**
 * Several summaries, oldest first, as one document text: what a compaction that absorbs more
 * than one summary (or nests them) hands the summariser as the previous summary. Summaries
 * in this module's shape merge section by section (the goal of the oldest, requests, facts,
 * artifacts and open questions in order, the newest next step); any other text is carried
 * under "Earlier summary", joined in order. One summary comes back unchanged.
 */
export function mergeSummaryTexts(texts: readonly string[]): string {
  if (texts.length === 1) return texts[0] ?? "";
  const docs = texts.map(parseSummary);
  const earlier = docs.flatMap((d) => (d.earlier === undefined ? [] : [d.earlier]));
  const seenArtifacts = new Set<string>();
  return renderSummary({
    goal: docs.find((d) => d.goal !== "")?.goal ?? "",
    requests: docs.flatMap((d) => d.requests),
    omittedRequests: docs.reduce((n, d) => n + d.omittedRequests, 0),
    facts: docs.flatMap((d) => d.facts),
    artifacts: docs
      .flatMap((d) => d.artifacts)
      .filter((a) => {
        const key = `${a.kind}\u0000${a.value}`;
        if (seenArtifacts.has(key)) return false;
        seenArtifacts.add(key);
        return true;
      }),
    openQuestions: [...new Set(docs.flatMap((d) => d.openQuestions))],
    nextStep: [...docs].reverse().find((d) => d.nextStep !== "")?.nextStep ?? "",
    earlier: earlier.length === 0 ? undefined : earlier.join("\n\n"),
  });
}
