// What the CLI asks of the daemon, through the control API: the queries (status, the
// workflows a project sees), choosing a project's workflow, and the human overrides of a
// session (phase, reset, disable, enable), each audited with who and why.
import type { EffectRunner } from '../effects/effect-runner.js';
import type { SelectedWorkflows } from '../selected-workflow.js';
import type { SessionWorkflows } from '../session-workflows.js';
import type { Store } from '../store/store.js';
import type { WorkflowCatalog } from '../workflow-catalog.js';
import { createControlQueries } from './control-queries.js';
import { createOverrideRefusals } from './override-refusals.js';
import { createProjectWorkflows } from './project-workflows.js';
import { createSessionOverrides } from './session-overrides.js';

export interface ControlServiceDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly selected: SelectedWorkflows;
  readonly sessionWorkflows: SessionWorkflows;
  /** Overrides' effects (phase entries, approvals) run after their transaction, like a hook event's. */
  readonly effects: EffectRunner;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
}

export function createControlService(deps: ControlServiceDeps) {
  const queries = createControlQueries(deps);
  const projectWorkflows = createProjectWorkflows({ ...deps, queries });
  const overrides = createSessionOverrides({ ...deps, queries });
  const refusals = createOverrideRefusals(deps);
  return {
    status: queries.status,
    statusLine: queries.statusLine,
    listWorkflows: queries.listWorkflows,
    showWorkflow: queries.showWorkflow,
    setProjectWorkflow: projectWorkflows.setProjectWorkflow,
    clearProjectWorkflow: projectWorkflows.clearProjectWorkflow,
    changePhase: overrides.changePhase,
    reset: overrides.reset,
    setDisabled: overrides.setDisabled,
    auditRows: queries.auditRows,
    recordRefusedOverride: refusals.record,
  };
}

export type ControlService = ReturnType<typeof createControlService>;
