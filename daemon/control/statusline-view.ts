// What `gobby statusline` shows, shaped from what the query read. Pure: no store, no clock
// (the time comes in as `now`), so it is tested on its own.
import { APPROVAL_WORDS, REJECTION_WORDS } from '../../workflows/index.js';
import type { SessionWorkflow } from '../session-workflows.js';

export interface StatusLineViewInput {
  readonly now: number;
  readonly projectRoot: string;
  /** The project's chosen workflow, shown before the session has reported. */
  readonly projectWorkflow: string | null;
  readonly sessionId: string | null;
  readonly sessionKnown: boolean;
  /** The session's workflow and state; or why it could not be read. */
  readonly running: SessionWorkflow | { readonly unreadable: string } | undefined;
  /** That workflow's file does not load (see the answer's `workflow_problem`). */
  readonly workflowProblem: { readonly workflow: string; readonly error: string } | null;
}

export function buildStatusLineView(input: StatusLineViewInput) {
  const base = { project: input.projectRoot, session_id: input.sessionId, session_known: input.sessionKnown, workflow_problem: input.workflowProblem };
  const idle = { phase: null, phase_number: null, phase_count: null, pending_approval: null, blocked_this_turn: 0 };
  if (!input.sessionKnown) {
    const why = input.sessionId === null ? 'no Claude Code session has reported to gobby from this project yet' : 'this session has not reported to gobby yet';
    return { ...base, ...idle, workflow: input.projectWorkflow, enforcement: { state: 'off' as const, why } };
  }
  const { running } = input;
  if (!running) {
    const why = input.projectWorkflow
      ? `workflow \`${input.projectWorkflow}\` is not running in this session (gobby workflow list shows why)`
      : 'no workflow chosen for this project (gobby workflow set <name>)';
    return { ...base, ...idle, workflow: null, enforcement: { state: 'off' as const, why } };
  }
  if ('unreadable' in running) return { ...base, ...idle, workflow: null, enforcement: { state: 'off' as const, why: running.unreadable } };
  const { workflow, state } = running;
  const phase = workflow.phase(state.phase);
  const pending = state.pendingApproval;
  return {
    ...base,
    workflow: workflow.name,
    phase: state.phase,
    phase_number: phase ? phase.index + 1 : null,
    phase_count: workflow.phases.length,
    pending_approval: pending
      ? { prompt: pending.prompt, next_phase: phase?.nextPhase ?? null, approve_words: APPROVAL_WORDS, reject_words: REJECTION_WORDS }
      : null,
    blocked_this_turn: state.blockedThisTurn,
    enforcement: enforcementOf(state.disabled, input.now),
  };
}

/** A `disable --for` that ran out reads as on: the engine turns it back on at the next event. */
function enforcementOf(disabled: SessionWorkflow['state']['disabled'], now: number) {
  if (!disabled) return { state: 'on' as const };
  const until = disabled.until ?? null;
  if (until === null) return { state: 'disabled' as const, reason: disabled.reason };
  if (now >= until) return { state: 'on' as const };
  return { state: 'paused' as const, reason: disabled.reason, until: new Date(until).toISOString(), seconds_left: Math.ceil((until - now) / 1000) };
}
