/**
 * The eval's figures: per kept window and probe kind, retention with and without the
 * summary; per window, what compaction saved; and how the offline audit's extracted probes
 * fared on the same summaries. Rendered as Markdown tables and kept whole as JSON.
 */
import type { PlantKind } from "./domain";
import type { ConversationOutcome, ProbeOutcome } from "./evaluate";

const KINDS: readonly PlantKind[] = ["fact", "artifact", "decision", "pending"];

export interface RetentionRow {
  readonly keptWindow: number;
  readonly kind: PlantKind | "all";
  readonly probes: number;
  /** Probes whose planting message the summary covers. */
  readonly covered: number;
  /** Of those, retained with the summary. */
  readonly retainedCovered: number;
  readonly retainedWith: number;
  readonly retainedWithout: number;
  /** Revised decisions answered with the value that was replaced (model runs only). */
  readonly stale: number;
}

export interface CompressionRow {
  readonly keptWindow: number;
  readonly compactions: number;
  readonly skipped: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly coveredTokens: number;
  readonly summaryTokens: number;
}

export interface AuditRow {
  readonly keptWindow: number;
  readonly extracted: number;
  readonly found: number;
  readonly plantedCovered: number;
  readonly plantedRetained: number;
}

export interface EvalReport {
  readonly mode: "offline" | "model";
  readonly model: string;
  readonly summaryModel: string;
  readonly contextWindow: number;
  readonly keptWindows: readonly number[];
  readonly corpus: {
    readonly conversations: number;
    readonly turns: { readonly min: number; readonly max: number };
    readonly tokens: number;
    readonly probes: number;
  };
  readonly retention: readonly RetentionRow[];
  readonly compression: readonly CompressionRow[];
  readonly audit: readonly AuditRow[];
  readonly conversations: readonly ConversationOutcome[];
}

function retentionRow(
  keptWindow: number,
  kind: RetentionRow["kind"],
  probes: readonly ProbeOutcome[],
): RetentionRow {
  const covered = probes.filter((p) => p.covered);
  return {
    keptWindow,
    kind,
    probes: probes.length,
    covered: covered.length,
    retainedCovered: covered.filter((p) => p.retainedWith).length,
    retainedWith: probes.filter((p) => p.retainedWith).length,
    retainedWithout: probes.filter((p) => p.retainedWithout).length,
    stale: probes.filter((p) => p.staleWith === true).length,
  };
}

export function buildReport(
  header: Pick<EvalReport, "mode" | "model" | "summaryModel" | "contextWindow" | "keptWindows">,
  conversations: readonly ConversationOutcome[],
): EvalReport {
  const retention: RetentionRow[] = [];
  const compression: CompressionRow[] = [];
  const audit: AuditRow[] = [];
  for (const keptWindow of header.keptWindows) {
    const runs = conversations.flatMap((c) => c.windows.filter((w) => w.keptWindow === keptWindow));
    const probes = runs.flatMap((w) => w.probes);
    for (const kind of KINDS) {
      retention.push(
        retentionRow(
          keptWindow,
          kind,
          probes.filter((p) => p.kind === kind),
        ),
      );
    }
    retention.push(retentionRow(keptWindow, "all", probes));
    const done = runs.filter((w) => w.notice === undefined);
    const sum = (f: (w: (typeof done)[number]) => number) => done.reduce((n, w) => n + f(w), 0);
    compression.push({
      keptWindow,
      compactions: done.length,
      skipped: runs.length - done.length,
      tokensBefore: sum((w) => w.tokensBefore),
      tokensAfter: sum((w) => w.tokensAfter),
      coveredTokens: sum((w) => w.coveredTokens),
      summaryTokens: sum((w) => w.summaryTokens),
    });
    const covered = probes.filter((p) => p.covered);
    audit.push({
      keptWindow,
      extracted: sum((w) => w.audit.total),
      found: sum((w) => w.audit.retained),
      plantedCovered: covered.length,
      plantedRetained: covered.filter((p) => p.retainedWith).length,
    });
  }
  const turns = conversations.map((c) => c.turns);
  return {
    ...header,
    corpus: {
      conversations: conversations.length,
      turns: { min: Math.min(...turns), max: Math.max(...turns) },
      tokens: conversations.reduce((n, c) => n + c.tokens, 0),
      probes: conversations.reduce((n, c) => n + (c.windows[0]?.probes.length ?? 0), 0),
    },
    retention,
    compression,
    audit,
    conversations,
  };
}

const int = (n: number) => n.toLocaleString("en-US");
const pct = (part: number, whole: number) =>
  whole === 0 ? "–" : `${((100 * part) / whole).toFixed(0)}%`;

export function renderMarkdown(report: EvalReport): string {
  const { corpus } = report;
  const how =
    report.mode === "offline"
      ? "offline: extractive summariser; retained = the probe's values are in the text the model reads (ROOT, summary, kept tail)"
      : `model \`${report.model}\` (summaries by \`${report.summaryModel}\`); retained = the model's answer to the probe contains its values`;
  const lines = [
    `Corpus: ${corpus.conversations} conversations, ${corpus.turns.min}–${corpus.turns.max} user turns each, ` +
      `${int(corpus.tokens)} tokens, ${corpus.probes} planted probes. Context window ${int(report.contextWindow)} tokens; ${how}.`,
    "",
    "| Kept window | Probe kind | Probes | Covered by the summary | Retained when covered | Retention with compaction | Without compaction |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of report.retention) {
    const kind = r.kind === "all" ? "**all**" : r.kind;
    const stale = r.stale > 0 ? ` (${r.stale} stale)` : "";
    lines.push(
      `| ${int(r.keptWindow)} | ${kind} | ${r.probes} | ${r.covered} (${pct(r.covered, r.probes)}) | ` +
        `${pct(r.retainedCovered, r.covered)} | ${pct(r.retainedWith, r.probes)}${stale} | ${pct(r.retainedWithout, r.probes)} |`,
    );
  }
  lines.push(
    "",
    "| Kept window | Compactions | Context before → after (tokens) | Covered turns → summary (tokens) | Compression of the covered turns |",
    "| ---: | ---: | ---: | ---: | ---: |",
  );
  for (const c of report.compression) {
    const ratio =
      c.summaryTokens === 0 ? "–" : `${(c.coveredTokens / c.summaryTokens).toFixed(1)}×`;
    lines.push(
      `| ${int(c.keptWindow)} | ${c.compactions}${c.skipped > 0 ? ` (${c.skipped} skipped)` : ""} | ` +
        `${int(c.tokensBefore)} → ${int(c.tokensAfter)} (${pct(c.tokensAfter, c.tokensBefore)}) | ` +
        `${int(c.coveredTokens)} → ${int(c.summaryTokens)} | ${ratio} |`,
    );
  }
  lines.push(
    "",
    "| Kept window | Offline audit: extracted probes found in the summary | Planted probes retained (covered ones) |",
    "| ---: | ---: | ---: |",
  );
  for (const a of report.audit) {
    lines.push(
      `| ${int(a.keptWindow)} | ${a.found} / ${a.extracted} (${pct(a.found, a.extracted)}) | ` +
        `${a.plantedRetained} / ${a.plantedCovered} (${pct(a.plantedRetained, a.plantedCovered)}) |`,
    );
  }
  return lines.join("\n");
}
