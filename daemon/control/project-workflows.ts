// Choosing and clearing a project's phase workflow (`gobby workflow set` / `clear`). Both
// change what every new session of the project runs, so both leave a project-level audit
// row with who and why; `clear` switches enforcement off and needs a reason.
import type { SessionWorkflows } from '../session-workflows.js';
import type { EffectEnvelope, EffectRunner } from '../effects/effect-runner.js';
import type { Store } from '../store/store.js';
import type { WorkflowCatalog } from '../workflow-catalog.js';
import { invalidWorkflow, type ControlQueries } from './control-queries.js';
import { requireReason } from './require-reason.js';

interface ProjectWorkflowsDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly sessionWorkflows: SessionWorkflows;
  readonly effects: EffectRunner;
  readonly queries: ControlQueries;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
}

interface ProjectWorkflowInput {
  readonly cwd: string;
  readonly actor: string;
  readonly reason?: string | undefined;
  /** What the daemon verified about who ran it (user, pid, tty), merged into the audit row's detail. */
  readonly detail?: Readonly<Record<string, unknown>> | undefined;
}

export function createProjectWorkflows(deps: ProjectWorkflowsDeps) {
  const { store, catalog, sessionWorkflows, clock } = deps;

  function setProjectWorkflow(input: ProjectWorkflowInput & { workflow: string }) {
    const now = clock();
    const root = deps.resolveProjectRoot(input.cwd);
    // The file as it is now: choosing a workflow whose file does not load is refused with its errors.
    const found = catalog.lookup(input.workflow, root, true);
    if (found.problem) throw invalidWorkflow(input.workflow, found.problem);
    const workflow = found.workflow;
    if (!workflow) throw deps.queries.unknownWorkflow(input.workflow, root);
    const definition = { file: workflow.source.file, tier: workflow.source.tier };
    return deps.effects.commitThenRun(() => {
      const project = store.projects.ensure(root, now);
      const previous = project.workflow;
      store.projects.setWorkflow(project.id, workflow.name, now);
      store.lastGood.record(project.id, workflow.name, workflow.source, workflow.hash, now);
      store.audit.appendForProject({
        at: now,
        projectId: project.id,
        event: 'workflow:set',
        decision: 'none',
        workflow: workflow.name,
        because:
          `project workflow ${previous && previous !== workflow.name ? `${previous} → ` : ''}${workflow.name} ` +
          `(${definition.tier}: ${definition.file}) for new sessions`,
        reason: input.reason?.trim() || null,
        actor: input.actor,
        detail: { previous_workflow: previous, definition: { ...definition, hash: workflow.hash }, ...input.detail },
      });
      // Running sessions without a workflow pick it up now, so `status` shows it at once;
      // their first prompt then carries the phase's instructions.
      const started: string[] = [];
      const effects: EffectEnvelope[] = [];
      for (const session of store.sessions.activeInProject(project.id)) {
        if (store.workflowStates.getPhase(session.id)) continue;
        const result = sessionWorkflows.start(session.id, workflow, now);
        effects.push(...result.effects.map((effect) => ({ effect, sessionId: session.id, workflow: workflow.name, actor: input.actor, at: now })));
        started.push(session.id);
      }
      return { result: { project: root, workflow: workflow.name, definition, started_sessions: started }, effects };
    }).result;
  }

  function clearProjectWorkflow(input: ProjectWorkflowInput) {
    const reason = requireReason(input.reason, 'clear');
    const now = clock();
    const root = deps.resolveProjectRoot(input.cwd);
    return store.transaction(() => {
      const project = store.projects.find(root);
      const previous = project?.workflow ?? null;
      // Nothing set, nothing switched off: there is no event to record.
      if (project && previous) {
        store.projects.setWorkflow(project.id, null, now);
        store.audit.appendForProject({
          at: now,
          projectId: project.id,
          event: 'workflow:clear',
          decision: 'none',
          workflow: previous,
          because: `project workflow ${previous} cleared: new sessions run without one; running sessions keep theirs`,
          reason,
          actor: input.actor,
          ...(input.detail === undefined ? {} : { detail: input.detail }),
        });
      }
      return { project: root, previous_workflow: previous };
    });
  }

  return { setProjectWorkflow, clearProjectWorkflow };
}
