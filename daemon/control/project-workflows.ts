// Choosing and clearing a project's phase workflow (`gobby workflow set` / `clear`).
import type { SessionWorkflows } from '../session-workflows.js';
import { auditEffects } from '../session-workflows.js';
import type { Store } from '../store/store.js';
import type { WorkflowCatalog } from '../workflow-catalog.js';
import type { ControlQueries } from './control-queries.js';

export interface ProjectWorkflowsDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly sessionWorkflows: SessionWorkflows;
  readonly queries: ControlQueries;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
}

export interface ProjectWorkflowInput {
  readonly cwd: string;
  readonly actor: string;
}

export function createProjectWorkflows(deps: ProjectWorkflowsDeps) {
  const { store, catalog, sessionWorkflows, clock } = deps;

  function setProjectWorkflow(input: ProjectWorkflowInput & { workflow: string }) {
    const now = clock();
    const root = deps.resolveProjectRoot(input.cwd);
    const workflow = catalog.resolve(input.workflow, root, true);
    if (!workflow) throw deps.queries.unknownWorkflow(input.workflow, root);
    const definition = { file: workflow.source.file, tier: workflow.source.tier };
    return store.transaction(() => {
      const project = store.projects.ensure(root, now);
      store.projects.setWorkflow(project.id, workflow.name, now);
      // Running sessions without a workflow pick it up now, so `status` shows it at once;
      // their first prompt then carries the phase's instructions.
      const started: string[] = [];
      for (const session of store.sessions.activeInProject(project.id)) {
        if (store.workflowStates.getPhase(session.id)) continue;
        const result = sessionWorkflows.start(session.id, workflow, now);
        auditEffects(store, { sessionId: session.id, workflow: workflow.name, at: now, actor: input.actor, effects: result.effects });
        started.push(session.id);
      }
      return { project: root, workflow: workflow.name, definition, started_sessions: started };
    });
  }

  function clearProjectWorkflow(input: { cwd: string }) {
    const now = clock();
    const root = deps.resolveProjectRoot(input.cwd);
    const project = store.projects.find(root);
    const previous = project?.workflow ?? null;
    if (project) store.projects.setWorkflow(project.id, null, now);
    return { project: root, previous_workflow: previous };
  }

  return { setProjectWorkflow, clearProjectWorkflow };
}
