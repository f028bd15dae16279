import type { Database } from 'better-sqlite3';

export interface ProjectRow {
  readonly id: number;
  readonly root: string;
  readonly workflow: string | null;
}

export function createProjectsRepository(db: Database) {
  const insert = db.prepare(
    'INSERT INTO projects (root, workflow, created_at, updated_at) VALUES (?, NULL, ?, ?) ON CONFLICT(root) DO NOTHING',
  );
  const byRoot = db.prepare('SELECT id, root, workflow FROM projects WHERE root = ?');
  const byId = db.prepare('SELECT id, root, workflow FROM projects WHERE id = ?');
  const setWorkflow = db.prepare('UPDATE projects SET workflow = ?, updated_at = ? WHERE id = ?');
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
    setWorkflow(id: number, workflow: string | null, now: number): void {
      setWorkflow.run(workflow, now, id);
      cache.clear();
    },
    /** Drops what was read: after a rolled-back transaction the cache may be ahead of the file. */
    forgetCached(): void {
      cache.clear();
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
