import type { NodeId, SessionId } from "./ids";

/**
 * The four kinds of probe a summary audit asks (after Factory's evaluation of context
 * compression): facts (names, numbers, dates), artifacts (files, identifiers, URLs),
 * decisions, and pending asks — what the conversation still had to do.
 */
export const PROBE_KINDS = ["fact", "artifact", "decision", "pending"] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

/** One probe of an audit and how the summary fared on it. */
export interface AuditProbeResult {
  readonly kind: ProbeKind;
  /** The original message it was extracted from. */
  readonly sourceId: NodeId;
  readonly question: string;
  /** The values the originals give (what the question blanks out). */
  readonly keys: readonly string[];
  /** The sentence of the originals it came from. */
  readonly sentence: string;
  /** Whether the summary's text states every value (the literal lookup; both modes). */
  readonly found: boolean;
  /** A model audit: the answer given from the summary. */
  readonly summaryAnswer?: string;
  /** A model audit: the answer given from the originals (the reference). */
  readonly originalAnswer?: string;
  /** A model audit: the judge's 0–5, or null when its reply held no score. */
  readonly score?: number | null;
  readonly reason?: string;
}

/** A kind's figures: values still stated, and (model audits) the mean judged score. */
export interface AuditFigure {
  readonly found: number;
  readonly total: number;
  readonly score: number | null;
}

/**
 * A stored audit of a summary (`GET/POST /api/sessions/:id/audits`). Never changed once
 * written. `mode: "offline"` is the fact-retention check (no model answered or judged):
 * `found / total` is what it measures and `score` is null. `mode: "model"`: the probes were
 * answered by `model` from the summary and from the originals and judged 0–5 by
 * `judgeModel`; `score` is the mean over judged probes.
 */
export interface SummaryAudit {
  readonly id: string;
  readonly sessionId: SessionId;
  readonly summaryId: NodeId;
  readonly createdAt: string;
  readonly mode: "model" | "offline";
  readonly model: string | null;
  readonly judgeModel: string | null;
  readonly score: number | null;
  readonly found: number;
  readonly total: number;
  readonly byKind: Readonly<Record<ProbeKind, AuditFigure>>;
  /** The original turns the summary stands in for. */
  readonly coveredTurns: number;
  readonly probes: readonly AuditProbeResult[];
}
