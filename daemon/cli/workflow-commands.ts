// gobby workflow …: list, show, set, clear, status, and the human-only overrides.
import { CliError, callDaemon, locateDaemon } from './daemon-client.js';
import { formatDuration } from './daemon-commands.js';
import { printResult, type OutputOptions } from './output.js';

type Env = Record<string, string | undefined>;

interface Context {
  readonly env: Env;
  readonly cwd: string;
  readonly output: OutputOptions;
}

export interface StatusView {
  session_id: string;
  project: string | null;
  workflow: string | null;
  phase: string | null;
  phases?: string[];
  definition?: { file: string; tier: string; hash: string };
  seconds_in_phase?: number;
  action_counts?: { phase: number; total: number; blocked: number };
  allowed_tools?: string[] | 'all';
  blocked_tools?: string[];
  way_out?: string;
  pending_approval?: { prompt: string; asked_at: string } | null;
  disabled?: { reason: string; at: string } | null;
  session: { started_at: string; last_event_at: string; ended_at: string | null };
  last_decisions: { at: string; event: string; tool: string | null; decision: string; phase: string | null; because: string; reason: string | null; actor: string }[];
}

/**
 * Overrides are for the human at the keyboard. The agent's Bash calls are refused by the
 * daemon before they run; this is a second line for a shell the agent reached anyway.
 */
function refuseInsideClaudeCode(env: Env, command: string): void {
  if (env.CLAUDECODE === '1') {
    throw new CliError(
      `\`gobby workflow ${command}\` is for humans and refuses to run inside a Claude Code session (CLAUDECODE=1). Run it from your own terminal.`,
      'GOBBY_ERR_CLI_HUMAN_ONLY',
    );
  }
}

const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();

export async function listWorkflows(ctx: Context): Promise<void> {
  const result = await callDaemon<{
    project: string;
    project_workflow: string | null;
    workflows: { name: string; description: string | null; tier: string; file: string; phase_names: string[]; shadowed_by: string | null }[];
    errors: { file: string; line: number; column: number; message: string }[];
  }>(locateDaemon(ctx.env), 'GET', `/api/workflows?${query({ cwd: ctx.cwd })}`);
  printResult(ctx.output, result, () => {
    const lines = [`Workflows for ${result.project}${result.project_workflow ? ` (set: ${result.project_workflow})` : ''}:`];
    for (const w of result.workflows) {
      const marker = w.name === result.project_workflow && !w.shadowed_by ? '*' : ' ';
      const shadow = w.shadowed_by ? `  (shadowed by the ${w.shadowed_by} tier)` : '';
      lines.push(`${marker} ${w.name.padEnd(20)} ${w.tier.padEnd(8)} ${w.phase_names.join(' → ')}${shadow}`);
      if (w.description) lines.push(`    ${w.description}`);
    }
    if (result.workflows.length === 0) lines.push('  (none)');
    for (const e of result.errors) lines.push(`error: ${e.file}:${e.line}:${e.column}: ${e.message}`);
    return lines.join('\n');
  });
}

export async function showWorkflow(ctx: Context, name: string): Promise<void> {
  const result = await callDaemon<{
    name: string;
    description: string | null;
    tier: string;
    file: string;
    phases: { name: string; description: string | null; allowed_tools: string[] | 'all'; blocked_tools: string[]; way_out: string }[];
  }>(locateDaemon(ctx.env), 'GET', `/api/workflows/${encodeURIComponent(name)}?${query({ cwd: ctx.cwd })}`);
  printResult(ctx.output, result, () =>
    [
      `${result.name} (${result.tier}: ${result.file})`,
      ...(result.description ? [result.description] : []),
      ...result.phases.flatMap((phase, index) => [
        '',
        `${index + 1}. ${phase.name}${phase.description ? ` — ${phase.description}` : ''}`,
        `   allowed: ${phase.allowed_tools === 'all' ? 'all' : phase.allowed_tools.join(', ')}`,
        ...(phase.blocked_tools.length > 0 ? [`   blocked: ${phase.blocked_tools.join(', ')}`] : []),
        `   next:    ${phase.way_out}`,
      ]),
    ].join('\n'),
  );
}

export async function setWorkflow(ctx: Context, name: string, options: { reason?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'set');
  const result = await callDaemon<{ project: string; workflow: string; definition: { file: string; tier: string }; started_sessions: string[] }>(
    locateDaemon(ctx.env),
    'PUT',
    '/api/projects/workflow',
    { cwd: ctx.cwd, workflow: name, reason: options.reason },
  );
  printResult(ctx.output, result, () =>
    [
      `workflow ${result.workflow} (${result.definition.tier}: ${result.definition.file}) set for ${result.project}`,
      result.started_sessions.length > 0
        ? `started in running session(s): ${result.started_sessions.join(', ')}`
        : 'it applies to the next Claude Code session started in this project',
    ].join('\n'),
  );
}

export async function clearWorkflow(ctx: Context, options: { reason?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'clear');
  const result = await callDaemon<{ project: string; previous_workflow: string | null }>(locateDaemon(ctx.env), 'POST', '/api/projects/workflow/clear', {
    cwd: ctx.cwd,
    reason: options.reason,
  });
  printResult(ctx.output, result, () =>
    result.previous_workflow
      ? `workflow ${result.previous_workflow} cleared for ${result.project}; new sessions run without one; running sessions keep theirs`
      : `no workflow was set for ${result.project}`,
  );
}

export async function showStatus(ctx: Context, session: string | undefined): Promise<void> {
  const status = await callDaemon<StatusView>(locateDaemon(ctx.env), 'GET', `/api/status?${query({ cwd: ctx.cwd, session })}`);
  printResult(ctx.output, status, () => formatStatus(status));
}

export function formatStatus(status: StatusView): string {
  const lines = [`session   ${status.session_id}${status.session.ended_at ? ' (ended)' : ''}`, `project   ${status.project ?? '?'}`];
  if (!status.workflow) {
    lines.push('workflow  none — choose one with: gobby workflow set <name>');
  } else {
    const phases = status.phases ?? [];
    lines.push(
      `workflow  ${status.workflow}  (${status.definition?.tier}: ${status.definition?.file})`,
      `phase     ${status.phase}  [${phases.map((p) => (p === status.phase ? `*${p}*` : p)).join(' → ')}]  for ${formatDuration(status.seconds_in_phase ?? 0)}`,
      `actions   ${status.action_counts?.phase ?? 0} in phase, ${status.action_counts?.total ?? 0} in total, ${status.action_counts?.blocked ?? 0} blocked`,
      `allowed   ${status.allowed_tools === 'all' ? 'all tools' : (status.allowed_tools ?? []).join(', ')}`,
      `blocked   ${(status.blocked_tools ?? []).length > 0 ? status.blocked_tools!.join(', ') : '—'}`,
      `approval  ${status.pending_approval ? `pending: "${status.pending_approval.prompt}" (asked ${status.pending_approval.asked_at})` : '—'}`,
      `next      ${status.way_out ?? ''}`,
    );
    if (status.disabled) lines.push(`DISABLED  ${status.disabled.reason} (since ${status.disabled.at}); re-enable with: gobby workflow enable`);
  }
  lines.push('', 'last decisions (newest first):');
  for (const d of status.last_decisions) {
    const what = [d.event, d.tool].filter(Boolean).join(' ');
    lines.push(`  ${d.at.slice(11, 19)}  ${d.decision.padEnd(7)} ${what.padEnd(28)} ${d.phase ?? '-'}  ${d.because}${d.actor !== 'claude-code' ? `  [${d.actor}]` : ''}`);
  }
  if (status.last_decisions.length === 0) lines.push('  (none)');
  return lines.join('\n');
}

export async function changePhase(ctx: Context, phase: string, options: { force: boolean; reason?: string; session?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'phase');
  const result = await callDaemon<{ session_id: string; workflow: string; from: string; to: string; forced: boolean; reason: string }>(
    locateDaemon(ctx.env),
    'POST',
    '/api/sessions/phase',
    { cwd: ctx.cwd, session: options.session, phase, force: options.force, reason: options.reason },
  );
  printResult(ctx.output, result, () =>
    `session ${result.session_id}: ${result.workflow} moved ${result.from} → ${result.to}${result.forced ? ' (forced)' : ''}; reason recorded: ${result.reason}`,
  );
}

export async function resetWorkflow(ctx: Context, options: { reason?: string; session?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'reset');
  const result = await callDaemon<{ session_id: string; workflow: string; phase: string; previous_phase: string; definition_hash: string }>(
    locateDaemon(ctx.env),
    'POST',
    '/api/sessions/reset',
    { cwd: ctx.cwd, session: options.session, reason: options.reason },
  );
  printResult(ctx.output, result, () =>
    `session ${result.session_id}: ${result.workflow} reloaded (definition ${result.definition_hash}) and reset from ${result.previous_phase} to ${result.phase}`,
  );
}

export async function setEnforcement(ctx: Context, enabled: boolean, options: { reason?: string; session?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, enabled ? 'enable' : 'disable');
  const result = await callDaemon<{ session_id: string; workflow: string; phase: string; reason: string }>(
    locateDaemon(ctx.env),
    'POST',
    enabled ? '/api/sessions/enable' : '/api/sessions/disable',
    { cwd: ctx.cwd, session: options.session, reason: options.reason },
  );
  printResult(ctx.output, result, () =>
    enabled
      ? `session ${result.session_id}: ${result.workflow} enforcement enabled again (phase ${result.phase})`
      : `session ${result.session_id}: ${result.workflow} enforcement DISABLED (reason: ${result.reason}); re-enable with: gobby workflow enable`,
  );
}
