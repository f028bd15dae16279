// `gobby workflow status` as shaped from rows: no daemon, no database, just the view.
import { describe, expect, it } from 'vitest';
import { buildStatusView, type StatusViewInput } from '../../daemon/control/status-view.js';
import type { AuditRow } from '../../daemon/store/audit-repository.js';
import type { SessionRow } from '../../daemon/store/sessions-repository.js';
import { startWorkflow, type WorkflowState } from '../../workflows/index.js';
import { compile, loadTemplate, T0 } from './engine-test-helpers.js';

const session: SessionRow = {
  id: 'session-1',
  projectId: 7,
  cwd: '/work/app/src',
  transcriptPath: null,
  startedAt: T0,
  lastEventAt: T0 + 90_000,
  endedAt: null,
  endReason: null,
  failureMode: null,
};

const denyRow: AuditRow = {
  id: 12,
  sessionId: 'session-1',
  projectId: null,
  at: T0 + 60_000,
  event: 'PreToolUse',
  toolName: 'Write',
  decision: 'deny',
  phase: 'plan',
  because: 'phase plan: Write is not allowed',
  reason: 'gobby: Write is not allowed in phase plan.',
  actor: 'claude-code',
};

const planExecute = loadTemplate('plan-execute');
const planState = (overrides: Partial<WorkflowState> = {}): WorkflowState => ({
  ...startWorkflow(planExecute, { now: T0 }).state,
  ...overrides,
});

function view(overrides: Partial<StatusViewInput>) {
  return buildStatusView({
    now: T0 + 125_400,
    session,
    project: { id: 7, root: '/work/app', workflow: 'plan-execute' },
    decisionCounts: { deny: 1 },
    recentDecisions: [denyRow],
    running: undefined,
    workflowProblem: null,
    ...overrides,
  });
}

describe('the status view', () => {
  it('shows the session, its project and its decisions when it runs no workflow', () => {
    expect(view({})).toEqual({
      session_id: 'session-1',
      project: '/work/app',
      project_workflow: 'plan-execute',
      cwd: '/work/app/src',
      session: {
        started_at: new Date(T0).toISOString(),
        last_event_at: new Date(T0 + 90_000).toISOString(),
        ended_at: null,
        end_reason: null,
      },
      decision_counts: { deny: 1 },
      last_decisions: [
        {
          at: new Date(T0 + 60_000).toISOString(),
          event: 'PreToolUse',
          tool: 'Write',
          decision: 'deny',
          phase: 'plan',
          because: 'phase plan: Write is not allowed',
          reason: 'gobby: Write is not allowed in phase plan.',
          actor: 'claude-code',
        },
      ],
      failure_mode: 'strict',
      workflow_problem: null,
      workflow: null,
      phase: null,
    });
  });

  it('shows an ended session, a missing project, and rows without tool or actor', () => {
    const ended = view({
      session: { ...session, endedAt: T0 + 100_000, endReason: 'logout' },
      project: undefined,
      recentDecisions: [{ ...denyRow, toolName: null, reason: null, phase: null, actor: undefined as unknown as string }],
    });
    expect(ended).toMatchObject({
      project: null,
      project_workflow: null,
      session: { ended_at: new Date(T0 + 100_000).toISOString(), end_reason: 'logout' },
      last_decisions: [{ tool: null, reason: null, phase: null, actor: 'claude-code' }],
    });
  });

  it("shows the phase, its tools, the way on, counts and time in phase of a running workflow", () => {
    const state = planState({ phaseActionCount: 3, totalActionCount: 8, blockedCount: 2, variables: { ticket: 'GOB-7' } });
    const status = view({ running: { workflow: planExecute, state } });
    expect(status).toMatchObject({
      workflow: 'plan-execute',
      phase: 'plan',
      phases: ['plan', 'execute'],
      definition: { file: planExecute.source.file, tier: 'builtin', hash: planExecute.hash },
      phase_entered_at: new Date(T0).toISOString(),
      seconds_in_phase: 125,
      action_counts: { phase: 3, total: 8, blocked: 2 },
      blocked_tools: ['Write', 'Edit', 'NotebookEdit', 'Bash'],
      pending_approval: null,
      disabled: null,
      variables: { ticket: 'GOB-7' },
    });
    if (status.workflow === null) throw new Error('expected a running workflow');
    expect(status.allowed_tools).toContain('Read');
    expect(status.way_out).toContain('Plan complete. Ready to implement?');
    expect(typeof status.tools_summary).toBe('string');
  });

  it('shows a pending approval and a disabled workflow with their times', () => {
    const state = planState({
      pendingApproval: { phase: 'plan', prompt: 'Ready?', askedAt: T0 + 30_000 },
      disabled: { reason: 'hotfix', at: T0 + 40_000 },
    });
    expect(view({ running: { workflow: planExecute, state } })).toMatchObject({
      pending_approval: { phase: 'plan', prompt: 'Ready?', asked_at: new Date(T0 + 30_000).toISOString() },
      disabled: { reason: 'hotfix', at: new Date(T0 + 40_000).toISOString() },
    });
  });

  it("says 'all' for a phase that allows every tool, and never a negative time in phase", () => {
    const open = compile('name: open\nphases:\n  - name: work\n    allowed_tools: all\n');
    const state = { ...startWorkflow(open, { now: T0 }).state };
    const status = view({ now: T0 - 5_000, running: { workflow: open, state } });
    expect(status).toMatchObject({ workflow: 'open', phase: 'work', allowed_tools: 'all', blocked_tools: [], seconds_in_phase: 0 });
  });
});
