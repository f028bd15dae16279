// What gobby tells the user, never the model: Claude Code shows a hook answer's
// `systemMessage` in the terminal and does not put it in the conversation. Every notice
// starts with `gobby:` so the user knows who speaks, and says what to do when there is
// something to do. (What the model is told is phrased in messages.ts.)
import type { CompiledPhase, CompiledWorkflow } from './compile.js';
import { APPROVAL_WORDS, REJECTION_WORDS } from './messages.js';

/**
 * Several notices for one hook answer: one per line, oldest first; undefined when there is
 * none. Every notice goes through here, so notices from different places (the engine, the
 * daemon's own about a broken workflow) can share one answer.
 */
export function joinNotices(...notices: readonly (string | undefined)[]): string | undefined {
  const present = notices.filter((notice): notice is string => notice !== undefined && notice.trim() !== '');
  return present.length > 0 ? present.join('\n') : undefined;
}

/** `"yes" (or y, approve, …)`: the words the user can start a reply with. */
function describeReplyWords(words: readonly string[]): string {
  const [first, ...others] = words;
  return others.length > 0 ? `"${first}" (or ${others.join(', ')})` : `"${first}"`;
}

export function renderPhaseChangedNotice(workflow: CompiledWorkflow, from: string | null, to: string, why: string): string {
  return from === null
    ? `gobby: ${workflow.name} entered phase \`${to}\`: ${why}.`
    : `gobby: ${workflow.name} moved from phase \`${from}\` to \`${to}\`: ${why}.`;
}

/** At the Stop that asked the phase's approval question: the words that answer it. */
export function renderApprovalPendingNotice(workflow: CompiledWorkflow, phase: CompiledPhase): string {
  const next = phase.nextPhase ? ` for \`${phase.nextPhase}\`` : '';
  return (
    `gobby: ${workflow.name} waits for your approval to leave \`${phase.name}\`${next}. ` +
    `Start your reply with ${describeReplyWords(APPROVAL_WORDS)} to approve, or ${describeReplyWords(REJECTION_WORDS)} to stay in \`${phase.name}\`.`
  );
}

export function renderApprovalDeclinedNotice(workflow: CompiledWorkflow, phase: CompiledPhase): string {
  return `gobby: not approved; ${workflow.name} stays in \`${phase.name}\`, and the agent is told to address your reply and ask again.`;
}

/** Why a reply that starts like an approval did not approve anything. */
export type ApprovalNotTaken = { readonly kind: 'not_asked' } | { readonly kind: 'exit_conditions'; readonly unmet: readonly string[] };

export function renderApprovalNotTakenNotice(workflow: CompiledWorkflow, phase: CompiledPhase, why: ApprovalNotTaken): string {
  const question = phase.approvalPrompt ?? '';
  const next = phase.nextPhase ?? '';
  if (why.kind === 'exit_conditions') {
    return (
      `gobby: your reply was not taken as approval to leave \`${phase.name}\`: the phase's exit conditions do not hold yet ` +
      `(${why.unmet.join('; ')}). The agent got it as an ordinary reply. ` +
      `To move on anyway: gobby workflow phase ${next} --force --reason "…"`
    );
  }
  return (
    `gobby: your reply was not taken as approval to leave \`${phase.name}\`: the agent's last message did not ask ` +
    `the approval question ("${question}"). The agent got it as an ordinary reply. ` +
    `To approve, ask the agent to end its turn with that question and answer it, or move on yourself: gobby workflow phase ${next}`
  );
}

export function renderDisabledNotice(
  workflow: CompiledWorkflow,
  phase: CompiledPhase,
  disabled: { readonly reason: string; readonly until?: number | null | undefined },
  now: number,
): string {
  if (disabled.until === undefined || disabled.until === null) {
    return (
      `gobby: enforcement is OFF for this session: ${workflow.name} was disabled ("${disabled.reason}"). ` +
      'Every tool is allowed and still audited. Turn it back on: gobby workflow enable'
    );
  }
  return (
    `gobby: enforcement is paused for this session for another ${describeTimeLeft(disabled.until - now)} ("${disabled.reason}"): ` +
    `every tool is allowed until then, then ${workflow.name} holds the session to phase \`${phase.name}\` again. ` +
    'Resume now: gobby workflow enable'
  );
}

export function renderEnforcementResumedNotice(workflow: CompiledWorkflow, phase: CompiledPhase): string {
  return `gobby: enforcement is back on: the \`disable --for\` ran out, and ${workflow.name} holds the session to phase \`${phase.name}\` again.`;
}

/** `40 s`, `12 min`, `2 h 5 min`: rounded up, so "1 min" never means "already over". */
export function describeTimeLeft(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A tool the phase refuses ran anyway: gobby never saw its call (lenient mode, a hook that timed out, a daemon restart). */
export function renderRanUncheckedNotice(workflow: CompiledWorkflow, phase: CompiledPhase, toolName: string, failed: boolean): string {
  return (
    `gobby: ${toolName} ran${failed ? ' (and failed)' : ''} in ${workflow.name}'s phase \`${phase.name}\`, which refuses it: gobby did not see the call ` +
    'before it ran (lenient mode, a PreToolUse hook that timed out, or a daemon restart). It does not count toward the workflow, and ' +
    '`gobby workflow audit` shows it as `ran-unchecked`. Check what it changed.'
  );
}
