// Loading, starting and saving a session's workflow. Shared by the hook service and the
// control service; every function here runs inside the caller's transaction.
import {
  startWorkflow,
  type CompiledWorkflow,
  type Effect,
  type WorkflowState,
} from '../workflows/index.js';
import { gobbyError } from './errors.js';
import type { Store } from './store/store.js';
import type { WorkflowCatalog } from './workflow-catalog.js';

export interface SessionWorkflow {
  readonly workflow: CompiledWorkflow;
  readonly state: WorkflowState;
}

export interface SessionWorkflowsDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
}

export function createSessionWorkflows({ store, catalog }: SessionWorkflowsDeps) {
  function load(sessionId: string): SessionWorkflow | undefined {
    const stored = store.workflowStates.getPhase(sessionId);
    if (!stored) return undefined;
    try {
      return { workflow: catalog.pinned(stored.definition, stored.definitionHash), state: stored.state };
    } catch (error) {
      throw gobbyError(
        'GOBBY_ERR_WORKFLOW_PINNED_INVALID',
        `session ${sessionId}: ${(error as Error).message}. Run \`gobby workflow reset --session ${sessionId} --reason …\` to reload it.`,
      );
    }
  }

  /** Pins `workflow` to the session and enters its first phase. */
  function start(sessionId: string, workflow: CompiledWorkflow, now: number): SessionWorkflow & { effects: Effect[] } {
    const started = startWorkflow(workflow, { now });
    store.workflowStates.start(sessionId, { kind: 'phase', definition: workflow.source, definitionHash: workflow.hash, state: started.state }, now);
    return { workflow, state: started.state, effects: started.effects };
  }

  /**
   * The session's workflow; a session without one picks up its project's workflow
   * (`gobby workflow set` applies to sessions that start later and to running sessions
   * that have none).
   */
  function loadOrStart(
    sessionId: string,
    project: { root: string; workflow: string | null },
    now: number,
  ): (SessionWorkflow & { effects: readonly Effect[] }) | { missing: string } | undefined {
    const loaded = load(sessionId);
    if (loaded) return { ...loaded, effects: [] };
    if (!project.workflow) return undefined;
    const workflow = catalog.resolve(project.workflow, project.root);
    if (!workflow) return { missing: project.workflow };
    return start(sessionId, workflow, now);
  }

  function save(sessionId: string, state: WorkflowState, now: number): void {
    store.workflowStates.save(sessionId, state, now);
  }

  return { load, start, loadOrStart, save };
}

export type SessionWorkflows = ReturnType<typeof createSessionWorkflows>;
