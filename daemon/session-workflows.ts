// Loading, starting and saving a session's workflow. Shared by the hook service and the
// control service; every function here runs inside the caller's transaction.
import {
  startWorkflow,
  type CompiledWorkflow,
  type Effect,
  type WorkflowState,
} from '../workflows/index.js';
import { gobbyError } from './errors.js';
import type { Selection, SelectedWorkflows } from './selected-workflow.js';
import type { Store } from './store/store.js';
import type { WorkflowCatalog } from './workflow-catalog.js';

export interface SessionWorkflow {
  readonly workflow: CompiledWorkflow;
  readonly state: WorkflowState;
}

export interface SessionWorkflowsDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly selected: SelectedWorkflows;
}

/** A project's workflow that a session could not start: what was selected and why it does not run. */
export interface UnavailableWorkflow {
  readonly workflow: string;
  readonly selection: Extract<Selection, { kind: 'broken' | 'missing' }>;
}

export function createSessionWorkflows({ store, catalog, selected }: SessionWorkflowsDeps) {
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
   * that have none). A project workflow whose file does not load starts on its last good
   * version (`selection` says so), or is `unavailable` when there is none.
   */
  function loadOrStart(
    sessionId: string,
    project: { id: number; root: string; workflow: string | null },
    now: number,
  ): (SessionWorkflow & { effects: readonly Effect[]; selection?: Selection }) | { unavailable: UnavailableWorkflow } | undefined {
    const loaded = load(sessionId);
    if (loaded) return { ...loaded, effects: [] };
    if (!project.workflow) return undefined;
    const selection = selected.resolve(project, project.workflow);
    if (selection.kind === 'broken' || selection.kind === 'missing') return { unavailable: { workflow: project.workflow, selection } };
    selected.recordGood(project.id, selection.workflow, now);
    return { ...start(sessionId, selection.workflow, now), selection };
  }

  function save(sessionId: string, state: WorkflowState, now: number): void {
    store.workflowStates.save(sessionId, state, now);
  }

  return { load, start, loadOrStart, save };
}

export type SessionWorkflows = ReturnType<typeof createSessionWorkflows>;
