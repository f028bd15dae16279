import type { Database } from 'better-sqlite3';

export interface ProjectRow {
  readonly id: number;
  readonly root: string;
  /** The project's phase workflow (`gobby workflow set`), or null. */
  readonly workflow: string | null;
}

// The phase workflow comes along with the row: every hook event needs both.
const SELECT_PROJECT = `SELECT p.id, p.root, w.workflow FROM projects p
  LEFT JOIN project_workflows w ON w.project_id = p.id AND w.kind = 'phase'`;

export function createProjectsRepository(db: Database) {
  const insert = db.prepare('INSERT INTO projects (root, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT(root) DO NOTHING');
  const byRoot = db.prepare(`${SELECT_PROJECT} WHERE p.root = ?`);
  const byId = db.prepare(`${SELECT_PROJECT} WHERE p.id = ?`);
  const clearPhaseWorkflow = db.prepare(`DELETE FROM project_workflows WHERE project_id = ? AND kind = 'phase'`);
  const addPhaseWorkflow = db.prepare(`INSERT INTO project_workflows (project_id, workflow, kind, created_at, updated_at)
    VALUES (@projectId, @workflow, 'phase', @now, @now)
    ON CONFLICT(project_id, workflow) DO UPDATE SET kind = 'phase', updated_at = @now`);
  const touch = db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?');
  // Every hook event needs its project row; the daemon is the only writer, so a row read
  // once stays true until setWorkflow changes it.
  const cache = new Map<string, ProjectRow>();
  return {
    ensure(root: string, now: number): ProjectRow {
      const cached = cache.get(root);
      if (cached) return cached;
      insert.run(root, now, now);
      const row = byRoot.get(root) as ProjectRow;
      cache.set(root, row);
      return row;
    },
    find(root: string): ProjectRow | undefined {
      return byRoot.get(root) as ProjectRow | undefined;
    },
    get(id: number): ProjectRow | undefined {
      return byId.get(id) as ProjectRow | undefined;
    },
    /** Chooses the project's phase workflow (null: none); its lifecycle workflows stay. */
    setWorkflow(id: number, workflow: string | null, now: number): void {
      clearPhaseWorkflow.run(id);
      if (workflow !== null) addPhaseWorkflow.run({ projectId: id, workflow, now });
      touch.run(now, id);
      cache.clear();
    },
    /** Drops what was read: after a rolled-back transaction the cache may be ahead of the file. */
    forgetCached(): void {
      cache.clear();
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
