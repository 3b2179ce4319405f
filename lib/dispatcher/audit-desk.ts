import { EngineError } from "../engine/errors";
import type { NodeId } from "../engine/ids";
import type { SummaryAudit } from "../engine/summary-audit";
import type { SessionRecord } from "../engine/types";
import type { AuditProgress, SummaryAuditor } from "../audit/summary-auditor";
import { windowFor } from "../compaction/model-window";
import type { AuditStore } from "../store/audit-store";

export interface AuditDeskDeps {
  readonly auditor: SummaryAuditor;
  readonly audits: Pick<AuditStore, "list">;
  /** The model a session's turns use (`Dispatcher.modelOf`). */
  readonly modelOf: (session: SessionRecord) => string;
  /** Judges audits unless the request names another: the summary model. */
  readonly judgeModel: string;
  /** False with the offline model: nothing can answer a probe. */
  readonly modelAudits: boolean;
  readonly serverWindow: number | undefined;
}

export interface AuditInput {
  readonly summaryId: NodeId;
  readonly mode?: "model" | "offline" | undefined;
  readonly model?: string | undefined;
  readonly judgeModel?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The audits of a session the Workspace has already checked ownership of: the defaults a
 * request leaves open (the session's model answers, the summary model judges; the offline
 * check when no model is configured) and the listing.
 */
export class AuditDesk {
  constructor(private readonly deps: AuditDeskDeps) {}

  run(session: SessionRecord, input: AuditInput): AsyncGenerator<AuditProgress, SummaryAudit> {
    const mode = input.mode ?? (this.deps.modelAudits ? "model" : "offline");
    if (mode === "model" && !this.deps.modelAudits) {
      throw new EngineError(
        "invalid_request",
        "No language model is configured, so nothing can answer the probes: only the " +
          'offline fact-retention check can run (mode "offline").',
      );
    }
    const sessionModel = this.deps.modelOf(session);
    const model = input.model ?? sessionModel;
    return this.deps.auditor.audit({
      session,
      summaryId: input.summaryId,
      mode,
      model,
      judgeModel: input.judgeModel ?? this.deps.judgeModel,
      window: windowFor({
        settings: session.meta.settings,
        sessionModel,
        model,
        serverWindow: this.deps.serverWindow,
      }),
      signal: input.signal,
    });
  }

  list(session: SessionRecord, summaryId?: NodeId): Promise<SummaryAudit[]> {
    return this.deps.audits.list(session.id, summaryId);
  }
}
