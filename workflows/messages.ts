// Everything the model is told by gobby is phrased here, so that every message names the
// phase, what is allowed now and how to move on (design §3.7).
import type { CompiledPhase, CompiledWorkflow } from './compile.js';
import type { ExpressionScope } from './expressions.js';
import type { ShellRefusal } from './shell-policy.js';

/** A reply whose first word is one of these approves a pending approval. */
export const APPROVAL_WORDS: readonly string[] = ['yes', 'y', 'approve', 'approved', 'proceed', 'continue', 'lgtm'];
/** A reply whose first word is one of these declines it. */
export const REJECTION_WORDS: readonly string[] = ['no', 'n', 'reject', 'rejected', 'stop', 'cancel'];

/**
 * How every refusal opens. Claude Code shows a hook's deny as `PreToolUse:Write hook error: …`
 * and cannot be told otherwise, so the first words after that say it is the workflow's rule
 * working as meant, not gobby failing.
 */
function workflowRulePrefix(workflow: CompiledWorkflow, phase: CompiledPhase): string {
  return `Workflow rule (${workflow.name}, phase ${phase.name}):`;
}

export function describeAllowedTools(phase: CompiledPhase): string {
  const { allowed, blockedPatterns } = phase.tools;
  if (allowed === 'all') {
    return blockedPatterns.length === 0 ? 'all tools' : `all tools except ${blockedPatterns.join(', ')}`;
  }
  const usable = allowed.patterns.filter((pattern) => !blockedPatterns.includes(pattern));
  return usable.length === 0 ? 'no tools' : usable.join(', ');
}

/** How the model (or the user) gets out of the current phase. */
export function describeWayOut(workflow: CompiledWorkflow, phase: CompiledPhase): string {
  const ways: string[] = [];
  if (phase.approvalPrompt !== undefined && phase.nextPhase) {
    const before = phase.exitChecks.length > 0 ? `Once ${phase.exitChecks.map((c) => c.label).join(' and ')}, present` : 'Present';
    ways.push(
      `${before} your work and end your turn with exactly this question to the user: "${phase.approvalPrompt}" ` +
        `When the user answers yes (or approve / proceed / continue), ` +
        `the workflow moves to the \`${phase.nextPhase}\` phase.`,
    );
  } else if (phase.hasExitConditions && phase.nextPhase) {
    ways.push(`The workflow moves to \`${phase.nextPhase}\` once ${phase.exitChecks.map((c) => c.label).join(' and ')}.`);
  }
  for (const transition of phase.transitions) {
    ways.push(`It moves to \`${transition.to}\` when ${transition.when.source}.`);
  }
  if (ways.length === 0) {
    return phase.index === workflow.phases.length - 1 ? 'This is the last phase of the workflow.' : 'Only the user can move the workflow on from here.';
  }
  return ways.join(' ');
}

export function renderPhaseContext(workflow: CompiledWorkflow, phase: CompiledPhase, scope: ExpressionScope): string {
  const lines = [
    `[gobby] Workflow \`${workflow.name}\` is in phase \`${phase.name}\` (${phase.index + 1} of ${workflow.phases.length})` +
      (phase.description ? `: ${phase.description}` : '.'),
  ];
  const instructions = phase.instructions?.render(scope);
  if (instructions) lines.push(instructions);
  const everything = phase.tools.allowed === 'all' && phase.tools.blockedPatterns.length === 0;
  lines.push(`Tools allowed in this phase: ${describeAllowedTools(phase)}.${everything ? '' : ' Other tools are refused by gobby.'}`);
  lines.push(describeWayOut(workflow, phase));
  return lines.join('\n');
}

export function renderToolDeniedReason(workflow: CompiledWorkflow, phase: CompiledPhase, toolName: string): string {
  // Where files may not change, the reason says so for every tool: listing Bash as allowed
  // would point the model at `sed -i` as the way around the blocked Write.
  const bashAllowed = !phase.tools.isBlocked('Bash') && (phase.tools.allowed === 'all' || phase.tools.allowed.matches('Bash'));
  const allowedNow =
    `Allowed now: ${describeAllowedTools(phase)}.` +
    (phase.shell.restrictsFileChanges ? ` No tool may change files in this phase${bashAllowed ? ', shell commands included' : ''}.` : '');
  return `${workflowRulePrefix(workflow, phase)} ${toolName} is not allowed in this phase. ${allowedNow} ${describeWayOut(workflow, phase)}`;
}

/** With the result of a tool the phase refuses that ran before gobby could refuse it. */
export function renderRanUncheckedReminder(workflow: CompiledWorkflow, phase: CompiledPhase, toolName: string): string {
  return (
    `${workflowRulePrefix(workflow, phase)} ${toolName} is not allowed in this phase; this call ran only because gobby did not see it ` +
    `before it ran, and it does not count toward the workflow. Do not use ${toolName} again in this phase. Allowed now: ${describeAllowedTools(phase)}. ` +
    describeWayOut(workflow, phase)
  );
}

/** A shell command (or an MCP tool) refused for what it would change. */
export function renderShellDeniedReason(workflow: CompiledWorkflow, phase: CompiledPhase, refusal: ShellRefusal): string {
  const wider = refusal.orAllOpaque ? ' (or all code gobby cannot see into with `shell: { allow_opaque: true }`)' : '';
  const author = refusal.allowedBy ? ` A workflow author can allow it in this phase with \`${refusal.allowedBy}\`${wider}.` : '';
  return (
    `${workflowRulePrefix(workflow, phase)} this phase does not allow changing files, by any tool, ` +
    `and this ${refusal.what}.${author} ${describeWayOut(workflow, phase)}`
  );
}

export function renderRuleDeniedReason(workflow: CompiledWorkflow, phase: CompiledPhase, message: string): string {
  const sentence = /[.!?]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`;
  return `${workflowRulePrefix(workflow, phase)} ${sentence} ${describeWayOut(workflow, phase)}`;
}

export function renderApprovalDeclined(phase: CompiledPhase): string {
  return `[gobby] The user did not approve leaving the \`${phase.name}\` phase. Stay in \`${phase.name}\`, address the user's reply, and ask again when ready.`;
}

/** The first word of the reply decides: "yes, go ahead" approves, "no, change X" declines. */
export function classifyApprovalReply(prompt: string): 'approve' | 'reject' | 'other' {
  const firstWord = /^[\s"'`*_>(]*([\p{L}]+)/u.exec(prompt.toLowerCase())?.[1];
  if (firstWord === undefined) return 'other';
  if (APPROVAL_WORDS.includes(firstWord)) return 'approve';
  if (REJECTION_WORDS.includes(firstWord)) return 'reject';
  return 'other';
}

/** Why a stop gate let the turn end with requirements unmet. */
export type StopReleaseReason = 'approval_pending' | 'asks_user' | 'no_tool_since_block' | 'max_blocks';

interface UnmetRequirement {
  readonly missing: string;
  readonly how: string;
}

/** Sent to the model as "Stop hook feedback": exactly what is missing and how to do it. */
export function renderStopBlockedReason(workflow: CompiledWorkflow, phase: CompiledPhase, unmet: readonly UnmetRequirement[]): string {
  return [
    `${workflowRulePrefix(workflow, phase)} the turn cannot end yet; this phase requires more.`,
    ...unmet.map((item) => `- Missing: ${item.missing}. How: ${item.how}`),
  ].join('\n');
}

const RELEASE_EXPLANATIONS: Readonly<Record<StopReleaseReason, string>> = {
  approval_pending: 'the agent is waiting for your approval',
  asks_user: 'the agent asked you a question',
  no_tool_since_block: 'the agent ran no tool since it was last held back, so holding it again would only loop',
  max_blocks: 'the agent was held back as many times as the workflow allows without getting closer',
};

/** Shown to the user when a stop gate lets the turn end with requirements unmet. */
export function renderStopReleasedNotice(
  workflow: CompiledWorkflow,
  phase: CompiledPhase,
  unmet: readonly UnmetRequirement[],
  reason: StopReleaseReason,
  blocks: number,
): string {
  const held = blocks === 0 ? '' : ` after ${blocks} stop block${blocks === 1 ? '' : 's'}`;
  return (
    `gobby: the turn ended${held} with the \`${phase.name}\` phase of \`${workflow.name}\` still missing: ` +
    `${unmet.map((item) => item.missing).join('; ')}. Let through because ${RELEASE_EXPLANATIONS[reason]}.`
  );
}
