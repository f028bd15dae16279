// What `gobby workflow status` shows, shaped from rows the queries already read. Pure: no
// store, no clock (the time comes in as `now`), so it is tested on its own.
import { describeAllowedTools, describeWayOut, type LoadError, type WorkflowState } from '../../workflows/index.js';
import type { SessionWorkflow } from '../session-workflows.js';
import type { AuditRow } from '../store/audit-repository.js';
import type { ProjectRow } from '../store/projects-repository.js';
import type { SessionRow } from '../store/sessions-repository.js';

export interface StatusViewInput {
  readonly now: number;
  readonly session: SessionRow;
  readonly project: ProjectRow | undefined;
  readonly decisionCounts: Record<string, number>;
  /** The session's newest audit rows, newest first. */
  readonly recentDecisions: readonly AuditRow[];
  /** The session's phase workflow and its state, if it runs one. */
  readonly running: SessionWorkflow | undefined;
  /** The file of the session's (or the project's) workflow does not load: its errors and what runs meanwhile. */
  readonly workflowProblem: WorkflowProblemView | null;
}

export interface WorkflowProblemView {
  readonly workflow: string;
  readonly errors: readonly LoadError[];
  readonly consequence: string;
}

export function buildStatusView(input: StatusViewInput) {
  const { session, project, running } = input;
  const base = {
    session_id: session.id,
    project: project?.root ?? null,
    project_workflow: project?.workflow ?? null,
    cwd: session.cwd,
    session: {
      started_at: iso(session.startedAt),
      last_event_at: iso(session.lastEventAt),
      ended_at: session.endedAt === null ? null : iso(session.endedAt),
      end_reason: session.endReason,
    },
    decision_counts: input.decisionCounts,
    last_decisions: input.recentDecisions.map((row) => ({
      at: iso(row.at),
      event: row.event,
      tool: row.toolName ?? null,
      decision: row.decision,
      phase: row.phase ?? null,
      because: row.because,
      reason: row.reason ?? null,
      actor: row.actor ?? 'claude-code',
    })),
    failure_mode: session.failureMode ?? 'strict',
    workflow_problem: input.workflowProblem,
  };
  if (!running) return { ...base, workflow: null, phase: null };
  const { workflow, state } = running;
  const phase = workflow.phase(state.phase)!;
  return {
    ...base,
    workflow: workflow.name,
    phase: state.phase,
    phases: workflow.phases.map((p) => p.name),
    definition: { file: workflow.source.file, tier: workflow.source.tier, hash: workflow.hash },
    phase_entered_at: iso(state.phaseEnteredAt),
    seconds_in_phase: Math.max(0, Math.round((input.now - state.phaseEnteredAt) / 1000)),
    action_counts: { phase: state.phaseActionCount, total: state.totalActionCount, blocked: state.blockedCount },
    allowed_tools: phase.tools.allowed === 'all' ? 'all' : phase.tools.allowed.patterns,
    blocked_tools: phase.tools.blockedPatterns,
    tools_summary: describeAllowedTools(phase),
    way_out: describeWayOut(workflow, phase),
    pending_approval: state.pendingApproval
      ? { phase: state.pendingApproval.phase, prompt: state.pendingApproval.prompt, asked_at: iso(state.pendingApproval.askedAt) }
      : null,
    disabled: disabledView(state.disabled, input.now),
    variables: state.variables,
  };
}

/**
 * A `disable --for` that ran out shows as enabled: the engine turns enforcement back on at the
 * session's next event, whether or not that event has come yet.
 */
function disabledView(disabled: WorkflowState['disabled'], now: number) {
  if (!disabled) return null;
  const until = disabled.until ?? null;
  if (until !== null && now >= until) return null;
  return {
    reason: disabled.reason,
    at: iso(disabled.at),
    until: until === null ? null : iso(until),
    seconds_left: until === null ? null : Math.ceil((until - now) / 1000),
  };
}

/** A project-level audit row (`gobby workflow set` / `clear`) as the control API shows it. */
export function viewProjectEvent(row: AuditRow) {
  return {
    at: iso(row.at),
    event: row.event,
    workflow: row.workflow ?? null,
    because: row.because,
    reason: row.reason ?? null,
    actor: row.actor ?? 'claude-code',
  };
}

/** Any audit row as `gobby workflow audit` shows it: whose it is, what happened, who did it and why. */
export function viewAuditRow(row: AuditRow) {
  return {
    at: iso(row.at),
    session_id: row.sessionId,
    event: row.event,
    tool: row.toolName ?? null,
    decision: row.decision,
    workflow: row.workflow ?? null,
    phase: row.phase ?? null,
    because: row.because,
    reason: row.reason ?? null,
    actor: row.actor ?? 'claude-code',
    detail: row.detail ?? null,
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
