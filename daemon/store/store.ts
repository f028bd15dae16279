// The daemon's store: one SQLite connection and its repositories. Only the daemon
// process opens it (design §3.2).
import type { Database } from 'better-sqlite3';
import { createAuditRepository } from './audit-repository.js';
import { createLastGoodRepository } from './last-good-repository.js';
import { createOutboxRepository } from './outbox-repository.js';
import { createProjectsRepository } from './projects-repository.js';
import { createSessionProcessesRepository } from './session-processes-repository.js';
import { createSessionsRepository } from './sessions-repository.js';
import { createWorkflowStatesRepository } from './workflow-states-repository.js';

export function createStore(db: Database) {
  const projects = createProjectsRepository(db);
  const sessions = createSessionsRepository(db);
  const workflowStates = createWorkflowStatesRepository(db);
  const lastGood = createLastGoodRepository(db);
  // Built once: better-sqlite3's transaction() wraps a function, and wrapping per event
  // showed up in the daemon's profile.
  const inTransaction = db.transaction((work: () => unknown) => work());
  return {
    db,
    projects,
    sessions,
    workflowStates,
    lastGood,
    audit: createAuditRepository(db),
    outbox: createOutboxRepository(db),
    sessionProcesses: createSessionProcessesRepository(db),
    /**
     * Runs `work` in one transaction: every hook event is one. The repositories cache what
     * they read and wrote; when the transaction rolls back, those caches are dropped so the
     * next read comes from the file again.
     */
    transaction<T>(work: () => T): T {
      try {
        return inTransaction(work) as T;
      } catch (error) {
        projects.forgetCached();
        sessions.forgetCached();
        workflowStates.forgetCached();
        lastGood.forgetCached();
        throw error;
      }
    },
  };
}
export type Store = ReturnType<typeof createStore>;
