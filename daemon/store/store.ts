// The daemon's store: one SQLite connection and its repositories. Only the daemon
// process opens it (design §3.2).
import type { Database } from 'better-sqlite3';
import { createAuditRepository } from './audit-repository.js';
import { createProjectsRepository } from './projects-repository.js';
import { createSessionsRepository } from './sessions-repository.js';
import { createWorkflowStatesRepository } from './workflow-states-repository.js';

export function createStore(db: Database) {
  return {
    db,
    projects: createProjectsRepository(db),
    sessions: createSessionsRepository(db),
    workflowStates: createWorkflowStatesRepository(db),
    audit: createAuditRepository(db),
    /** Runs `work` in one transaction: every hook event is one. */
    transaction<T>(work: () => T): T {
      return db.transaction(work)();
    },
  };
}
export type Store = ReturnType<typeof createStore>;
