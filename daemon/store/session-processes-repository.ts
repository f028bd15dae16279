// Which process a session's hook events must come from (migrations/004).
import type { Database } from 'better-sqlite3';

export interface SessionProcessRow {
  readonly pid: number;
  readonly startTime: number;
  readonly comm: string;
  readonly registeredBy: 'session-start' | 'first-event';
}

export function createSessionProcessesRepository(db: Database) {
  const byId = db.prepare(
    'SELECT pid, start_time AS startTime, comm, registered_by AS registeredBy FROM session_processes WHERE session_id = ?',
  );
  const upsert = db.prepare(`INSERT INTO session_processes (session_id, pid, start_time, comm, registered_at, registered_by)
    VALUES (@sessionId, @pid, @startTime, @comm, @now, @registeredBy)
    ON CONFLICT(session_id) DO UPDATE SET pid = @pid, start_time = @startTime, comm = @comm, registered_at = @now,
      registered_by = @registeredBy`);
  // No index on pid: looked up only when a human override is checked, which is rare.
  const byPid = db.prepare(
    'SELECT session_id AS sessionId, pid, start_time AS startTime, comm, registered_by AS registeredBy FROM session_processes WHERE pid = ?',
  );
  return {
    /** The sessions that registered process `pid` (its start time tells a reused pid apart). */
    withPid(pid: number): (SessionProcessRow & { readonly sessionId: string })[] {
      return byPid.all(pid) as (SessionProcessRow & { readonly sessionId: string })[];
    },
    get(sessionId: string): SessionProcessRow | undefined {
      return byId.get(sessionId) as SessionProcessRow | undefined;
    },
    register(sessionId: string, row: SessionProcessRow, now: number): void {
      upsert.run({ sessionId, ...row, now });
    },
  };
}
export type SessionProcessesRepository = ReturnType<typeof createSessionProcessesRepository>;
