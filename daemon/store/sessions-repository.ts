import type { Database } from 'better-sqlite3';

export interface SessionRow {
  readonly id: string;
  readonly projectId: number;
  readonly cwd: string;
  readonly transcriptPath: string | null;
  readonly startedAt: number;
  readonly lastEventAt: number;
  readonly endedAt: number | null;
  readonly endReason: string | null;
  /** How the session's hooks fail when the daemon cannot answer, as its SessionStart client said; null: never said (strict). */
  readonly failureMode: FailureMode | null;
}

export type FailureMode = 'strict' | 'lenient';

/** How stale `last_event_at` may be: "the most recently active session" needs no finer clock. */
const ACTIVITY_RESOLUTION_MS = 1000;

interface TouchedSession {
  readonly projectId: number;
  readonly cwd: string;
  readonly transcriptPath: string | null;
  readonly writtenAt: number;
}

const COLUMNS = `id, project_id AS projectId, cwd, transcript_path AS transcriptPath, started_at AS startedAt,
  last_event_at AS lastEventAt, ended_at AS endedAt, end_reason AS endReason, failure_mode AS failureMode`;

export function createSessionsRepository(db: Database) {
  const upsert = db.prepare(`INSERT INTO sessions (id, project_id, cwd, transcript_path, started_at, last_event_at)
    VALUES (@id, @projectId, @cwd, @transcriptPath, @now, @now)
    ON CONFLICT(id) DO UPDATE SET last_event_at = @now, cwd = @cwd,
      transcript_path = COALESCE(@transcriptPath, transcript_path)`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`);
  const reopen = db.prepare('UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = ?');
  const end = db.prepare('UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ?');
  const setFailureMode = db.prepare('UPDATE sessions SET failure_mode = ? WHERE id = ? AND failure_mode IS NOT ?');
  const latestInProject = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE project_id = ? ORDER BY last_event_at DESC LIMIT 1`);
  const activeInProject = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE project_id = ? AND ended_at IS NULL`);
  const countActive = db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE ended_at IS NULL');
  // Sessions written recently and still active: their row needs no write on every tool call.
  const touched = new Map<string, TouchedSession>();
  return {
    /** Records activity; a session that ended and is resumed becomes active again. */
    touch(input: { id: string; projectId: number; cwd: string; transcriptPath: string | null; now: number }): void {
      const seen = touched.get(input.id);
      if (
        seen &&
        seen.projectId === input.projectId &&
        seen.cwd === input.cwd &&
        (input.transcriptPath === null || seen.transcriptPath === input.transcriptPath) &&
        input.now - seen.writtenAt < ACTIVITY_RESOLUTION_MS
      ) {
        return;
      }
      upsert.run(input);
      const row = byId.get(input.id) as SessionRow;
      if (row.endedAt !== null) reopen.run(input.id);
      if (touched.size > 10_000) touched.clear();
      touched.set(input.id, { projectId: input.projectId, cwd: input.cwd, transcriptPath: row.transcriptPath, writtenAt: input.now });
    },
    get(id: string): SessionRow | undefined {
      return byId.get(id) as SessionRow | undefined;
    },
    /** Records how the session's hooks were installed (the SessionStart client says so on every start). */
    setFailureMode(id: string, mode: FailureMode): void {
      setFailureMode.run(mode, id, mode);
    },
    end(id: string, reason: string, now: number): void {
      end.run(now, reason, id);
      touched.delete(id);
    },
    /** Drops what was remembered: after a rolled-back transaction it may be ahead of the file. */
    forgetCached(): void {
      touched.clear();
    },
    latestInProject(projectId: number): SessionRow | undefined {
      return latestInProject.get(projectId) as SessionRow | undefined;
    },
    activeInProject(projectId: number): SessionRow[] {
      return activeInProject.all(projectId) as SessionRow[];
    },
    countActive(): number {
      return (countActive.get() as { n: number }).n;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
