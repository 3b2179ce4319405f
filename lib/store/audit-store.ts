import type { Db } from "../db/client";
import { asNodeId, asSessionId, type NodeId, type SessionId } from "../engine/ids";
import type { SummaryAudit } from "../engine/summary-audit";

/** The stored columns; everything else of an audit travels in `result`. */
type Stored = Omit<SummaryAudit, "id" | "sessionId" | "summaryId" | "mode" | "createdAt">;

/**
 * The audits of summaries: append-only (an audit is inserted once and never updated; a
 * session's delete cascades to them). Callers check ownership and that the summary is one
 * of the session's first (the Workspace, the auditor).
 */
export class AuditStore {
  constructor(private readonly db: Db) {}

  async append(audit: SummaryAudit): Promise<SummaryAudit> {
    const { id, sessionId, summaryId, mode, createdAt, ...rest } = audit;
    const result: Stored = rest;
    await this.db.summaryAudit.create({
      data: {
        id,
        sessionId,
        summaryId,
        mode,
        result: JSON.stringify(result),
        createdAt: new Date(createdAt),
      },
    });
    return audit;
  }

  /** A session's audits, newest first; those of one summary when `summaryId` is given. */
  async list(sessionId: SessionId, summaryId?: NodeId): Promise<SummaryAudit[]> {
    const rows = await this.db.summaryAudit.findMany({
      where: { sessionId, ...(summaryId === undefined ? {} : { summaryId }) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    return rows.map((row) => ({
      ...(JSON.parse(row.result) as Stored),
      id: row.id,
      sessionId: asSessionId(row.sessionId),
      summaryId: asNodeId(row.summaryId),
      mode: row.mode === "model" ? "model" : "offline",
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
