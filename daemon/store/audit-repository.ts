// The append-only audit log. A row belongs to one session (hook events, overrides,
// effects) or, for project-level events such as `gobby workflow set` and `clear`, to one
// project: the table's CHECK refuses a row with both or neither.
import type { Database } from 'better-sqlite3';

interface AuditFields {
  readonly at: number;
  readonly event: string;
  readonly toolName?: string | null;
  readonly toolUseId?: string | null;
  /** `ran-unchecked`: the result of a tool the phase refuses, whose call gobby never saw before it ran. */
  readonly decision: 'allow' | 'deny' | 'context' | 'none' | 'ran-unchecked';
  readonly workflow?: string | null;
  readonly phase?: string | null;
  readonly because: string;
  readonly reason?: string | null;
  readonly actor?: string;
  readonly detail?: unknown;
}

export interface AuditEntry extends AuditFields {
  readonly sessionId: string;
}

interface ProjectAuditEntry extends AuditFields {
  readonly projectId: number;
}

export interface AuditRow extends AuditFields {
  readonly id: number;
  readonly sessionId: string | null;
  readonly projectId: number | null;
}

const COLUMNS = `id, at, session_id AS sessionId, project_id AS projectId, event, tool_name AS toolName,
  tool_use_id AS toolUseId, decision, workflow, phase, because, reason, actor, detail_json AS detail`;

function fromRow(row: AuditRow & { detail: string | null }): AuditRow {
  return { ...row, detail: row.detail === null ? undefined : (JSON.parse(row.detail) as unknown) };
}

export function createAuditRepository(db: Database) {
  const insert = db.prepare(`INSERT INTO audit_log
      (at, session_id, project_id, event, tool_name, tool_use_id, decision, workflow, phase, because, reason, actor, detail_json)
    VALUES (@at, @sessionId, @projectId, @event, @toolName, @toolUseId, @decision, @workflow, @phase, @because, @reason, @actor, @detail)`);
  const recent = db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE session_id = ? ORDER BY id DESC LIMIT ?`);
  const recentForProject = db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE project_id = ? ORDER BY id DESC LIMIT ?`);
  const listing = db.prepare(`SELECT ${COLUMNS} FROM audit_log
    WHERE (@sessionId IS NOT NULL AND session_id = @sessionId
       OR @sessionId IS NULL AND (project_id = @projectId OR session_id IN (SELECT id FROM sessions WHERE project_id = @projectId)))
      AND (@tamperOnly = 0 OR event LIKE 'tamper:%')
    ORDER BY id DESC LIMIT @limit`);
  // Newest first along audit_by_session: the call's PreToolUse is a few rows back.
  const allowedCall = db.prepare(`SELECT 1 FROM audit_log
    WHERE session_id = ? AND tool_use_id = ? AND event = 'PreToolUse' AND decision IN ('allow', 'context')
    ORDER BY id DESC LIMIT 1`).pluck();
  const counts = db.prepare(`SELECT decision, COUNT(*) AS n FROM audit_log WHERE session_id = ? GROUP BY decision`);

  function write(owner: { sessionId: string | null; projectId: number | null }, entry: AuditFields): void {
    insert.run({
      ...owner,
      at: entry.at,
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
  }

  return {
    /** A session's row: a hook event, an override, an effect. */
    append(entry: AuditEntry): void {
      write({ sessionId: entry.sessionId, projectId: null }, entry);
    },
    /** A project's row: an event that concerns the project rather than one session. */
    appendForProject(entry: ProjectAuditEntry): void {
      write({ sessionId: null, projectId: entry.projectId }, entry);
    },
    /** Whether gobby allowed the PreToolUse of this tool call (by tool_use_id) in the session. */
    allowedToolCall(sessionId: string, toolUseId: string): boolean {
      return allowedCall.get(sessionId, toolUseId) !== undefined;
    },
    /** A session's rows, newest first. */
    recent(sessionId: string, limit: number): AuditRow[] {
      return (recent.all(sessionId, limit) as (AuditRow & { detail: string | null })[]).map(fromRow);
    },
    /** A project's own rows (not its sessions'), newest first. */
    recentForProject(projectId: number, limit: number): AuditRow[] {
      return (recentForProject.all(projectId, limit) as (AuditRow & { detail: string | null })[]).map(fromRow);
    },
    /** One session's rows, or a project's and all its sessions', newest first; `tamperOnly` keeps `tamper:*` rows. */
    list(filter: { sessionId: string | null; projectId: number | null; tamperOnly: boolean; limit: number }): AuditRow[] {
      const rows = listing.all({ ...filter, tamperOnly: filter.tamperOnly ? 1 : 0 }) as (AuditRow & { detail: string | null })[];
      return rows.map(fromRow);
    },
    decisionCounts(sessionId: string): Record<string, number> {
      const rows = counts.all(sessionId) as { decision: string; n: number }[];
      return Object.fromEntries(rows.map((row) => [row.decision, row.n]));
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
