/**
 * The audit a server without a language model can run honestly: the probes' values looked
 * up, literally, in the summary's text. No model answers and none judges; what it measures
 * is whether the summary still states each extracted fact, artifact, decision and pending
 * ask — not whether a model reading it would answer correctly.
 */
import { containsAll } from "./find-value";
import { PROBE_KINDS, type Probe, type ProbeKind } from "./extract-probes";

export interface RetentionCount {
  readonly retained: number;
  readonly total: number;
}

export interface OfflineProbeResult extends Probe {
  readonly found: boolean;
}

export interface OfflineCheck {
  readonly probes: readonly OfflineProbeResult[];
  readonly overall: RetentionCount;
  readonly byKind: Readonly<Record<ProbeKind, RetentionCount>>;
}

/** Which of `probes` the summary text still carries. */
export function offlineCheck(probes: readonly Probe[], summaryText: string): OfflineCheck {
  const results = probes.map((p) => ({ ...p, found: containsAll(summaryText, p.keys) }));
  return {
    probes: results,
    overall: countOf(results),
    byKind: Object.fromEntries(
      PROBE_KINDS.map((kind) => [kind, countOf(results.filter((r) => r.kind === kind))]),
    ) as Record<ProbeKind, RetentionCount>,
  };
}

function countOf(results: readonly OfflineProbeResult[]): RetentionCount {
  return { retained: results.filter((r) => r.found).length, total: results.length };
}
