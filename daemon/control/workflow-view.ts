// How the control API shows a workflow definition (`gobby workflow list` / `show`). Pure.
import { describeWayOut, type CompiledWorkflow } from '../../workflows/index.js';

export function summarizeWorkflow(workflow: CompiledWorkflow) {
  return {
    name: workflow.name,
    description: workflow.description ?? null,
    tier: workflow.source.tier,
    file: workflow.source.file,
    hash: workflow.hash,
    phase_names: workflow.phases.map((phase) => phase.name),
  };
}

export function describeWorkflow(workflow: CompiledWorkflow) {
  return {
    ...summarizeWorkflow(workflow),
    variables: workflow.variables,
    phases: workflow.phases.map((phase) => ({
      name: phase.name,
      description: phase.description ?? null,
      allowed_tools: phase.tools.allowed === 'all' ? ('all' as const) : phase.tools.allowed.patterns,
      blocked_tools: phase.tools.blockedPatterns,
      approval_prompt: phase.approvalPrompt ?? null,
      transitions: phase.transitions.map((t) => ({ to: t.to, when: t.when.source })),
      next_phase: phase.hasExitConditions ? (phase.nextPhase ?? null) : null,
      way_out: describeWayOut(workflow, phase),
    })),
  };
}
