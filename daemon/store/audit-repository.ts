import type { Database } from 'better-sqlite3';

export interface AuditEntry {
  readonly at: number;
  readonly sessionId: string;
  readonly event: string;
  readonly toolName?: string | null;
  readonly toolUseId?: string | null;
  readonly decision: 'allow' | 'deny' | 'context' | 'none';
  readonly workflow?: string | null;
  readonly phase?: string | null;
  readonly because: string;
  readonly reason?: string | null;
  readonly actor?: string;
  readonly detail?: unknown;
}

export interface AuditRow extends AuditEntry {
  readonly id: number;
}

export function createAuditRepository(db: Database) {
  const insert = db.prepare(`INSERT INTO audit_log
      (at, session_id, event, tool_name, tool_use_id, decision, workflow, phase, because, reason, actor, detail_json)
    VALUES (@at, @sessionId, @event, @toolName, @toolUseId, @decision, @workflow, @phase, @because, @reason, @actor, @detail)`);
  const recent = db.prepare(`SELECT id, at, session_id AS sessionId, event, tool_name AS toolName, tool_use_id AS toolUseId,
      decision, workflow, phase, because, reason, actor, detail_json AS detail
    FROM audit_log WHERE session_id = ? ORDER BY id DESC LIMIT ?`);
  const counts = db.prepare(`SELECT decision, COUNT(*) AS n FROM audit_log WHERE session_id = ? GROUP BY decision`);
  return {
    append(entry: AuditEntry): void {
      insert.run({
        at: entry.at,
        sessionId: entry.sessionId,
        event: entry.event,
        toolName: entry.toolName ?? null,
        toolUseId: entry.toolUseId ?? null,
        decision: entry.decision,
        workflow: entry.workflow ?? null,
        phase: entry.phase ?? null,
        because: entry.because,
        reason: entry.reason ?? null,
        actor: entry.actor ?? 'claude-code',
        detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      });
    },
    /** Newest first. */
    recent(sessionId: string, limit: number): AuditRow[] {
      return (recent.all(sessionId, limit) as (AuditRow & { detail: string | null })[]).map((row) => ({
        ...row,
        detail: row.detail === null ? undefined : (JSON.parse(row.detail) as unknown),
      }));
    },
    decisionCounts(sessionId: string): Record<string, number> {
      const rows = counts.all(sessionId) as { decision: string; n: number }[];
      return Object.fromEntries(rows.map((row) => [row.decision, row.n]));
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
