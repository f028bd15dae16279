// gobby workflow …: list, show, set, clear, status, and the human-only overrides.
import { homedir } from 'node:os';
import { EXIT_CODES, GobbyError, gobbyError } from '../../hooks/errors.js';
import { CONTROL_API } from '../contracts/control-api.js';
import { requireReason } from '../control/require-reason.js';
import type { AuditAnswer, StatusAnswer } from '../contracts/session-answers.js';
import { findProjectRoot, projectRootRefusal } from '../project-root.js';
import { callDaemon, locateDaemon } from './daemon-client.js';
import { formatDuration } from './daemon-commands.js';
import { refuseInsideClaudeCode } from './human-only.js';
import type { LocalWorkflows } from './local-workflows.js';
import { printResult, type OutputOptions } from './output.js';
import { visibleStrings } from './terminal-text.js';

type Env = Record<string, string | undefined>;

interface Context {
  readonly env: Env;
  readonly cwd: string;
  readonly output: OutputOptions;
}

/** The engine and the definition files, loaded only when a command reads the files here (see program.ts). */
function localWorkflows(ctx: Context): Promise<LocalWorkflows> {
  return import('./local-workflows.js').then((local) => local.createLocalWorkflows(ctx.env, ctx.cwd));
}

/**
 * Asks the daemon; when no daemon runs, reads the definition files here instead (commands
 * that only read definitions must work without one) and says so on stderr.
 */
async function fromDaemonOrFiles<T>(ctx: Context, ask: () => Promise<T>, read: (local: LocalWorkflows) => T): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof GobbyError) || error.code !== 'GOBBY_ERR_CLI_DAEMON_UNREACHABLE') throw error;
    // Unreachable is not always "not running": a daemon that took too long to answer is said so by the error itself.
    process.stderr.write(`gobby: ${error.message.split('\n')[0]}; reading the workflow files directly (the project's chosen workflow is not shown)\n`);
    const local = await localWorkflows(ctx);
    try {
      return read(local);
    } finally {
      await local.close();
    }
  }
}

export async function listWorkflows(ctx: Context): Promise<void> {
  const result = await fromDaemonOrFiles(
    ctx,
    () => callDaemon(locateDaemon(ctx.env), CONTROL_API.listWorkflows, { query: { cwd: ctx.cwd } }),
    (local) => local.list(),
  );
  // A file that does not load, or a chosen workflow that cannot run as its file says, fails the
  // command after the good ones are listed: scripts and CI notice.
  if (result.errors.length > 0 || result.project_workflow_problem !== null) process.exitCode = EXIT_CODES.failed;
  printResult(ctx.output, result, (shown) => {
    const lines = [`Workflows for ${shown.project}${shown.project_workflow ? ` (set: ${shown.project_workflow})` : ''}:`];
    for (const w of shown.workflows) {
      const marker = w.name === shown.project_workflow && !w.shadowed_by ? '*' : ' ';
      const shadow = w.shadowed_by ? `  (shadowed by the ${w.shadowed_by} tier)` : '';
      lines.push(`${marker} ${w.name.padEnd(20)} ${w.tier.padEnd(8)} ${w.phase_names.join(' → ')}${shadow}`);
      if (w.description) lines.push(`    ${w.description}`);
    }
    if (shown.workflows.length === 0) lines.push('  (none)');
    for (const e of shown.errors) lines.push(`error: ${e.file}:${e.line}:${e.column}: ${e.message}`);
    if (shown.project_workflow_problem) lines.push(`error: ${shown.project_workflow_problem}`);
    if (shown.project_events.length > 0) {
      lines.push('', 'recent choices for this project (newest first):');
      for (const e of shown.project_events) {
        lines.push(`  ${e.at.slice(0, 19).replace('T', ' ')}  ${e.because}  [${e.actor}]${e.reason ? `  reason: ${e.reason}` : ''}`);
      }
    }
    return lines.join('\n');
  });
}

export async function showWorkflow(ctx: Context, name: string): Promise<void> {
  const result = await fromDaemonOrFiles(
    ctx,
    () => callDaemon(locateDaemon(ctx.env), CONTROL_API.showWorkflow, { params: { name }, query: { cwd: ctx.cwd } }),
    (local) => local.show(name),
  );
  if (result.load_errors.length > 0) process.exitCode = EXIT_CODES.failed;
  printResult(ctx.output, result, (shown) =>
    [
      ...(shown.load_errors.length > 0
        ? [
            `THE FILE ON DISK DOES NOT LOAD; below is the last version that loaded (sessions start on it until the file is fixed):`,
            ...shown.load_errors.map((e) => `  error: ${e.file}:${e.line}:${e.column}: ${e.message}`),
            '',
          ]
        : []),
      `${shown.name} (${shown.tier}: ${shown.file})`,
      ...(shown.description ? [shown.description] : []),
      ...shown.phases.flatMap((phase, index) => [
        '',
        `${index + 1}. ${phase.name}${phase.description ? ` — ${phase.description}` : ''}`,
        `   allowed: ${phase.allowed_tools === 'all' ? 'all' : phase.allowed_tools.join(', ')}`,
        ...(phase.blocked_tools.length > 0 ? [`   blocked: ${phase.blocked_tools.join(', ')}`] : []),
        `   next:    ${phase.way_out}`,
      ]),
    ].join('\n'),
  );
}

/** `gobby workflow validate [file|name]`: loads definitions here, never asks the daemon; exit 1 when one does not load. */
export async function validateWorkflows(ctx: Context, target: string | undefined): Promise<void> {
  const local = await localWorkflows(ctx);
  try {
    const report = local.validate(target);
    const broken = report.files.filter((file) => file.errors.length > 0);
    if (broken.length > 0) process.exitCode = EXIT_CODES.failed;
    printResult(ctx.output, report, (shown) =>
      [
        ...shown.files.map((file) =>
          file.errors.length === 0
            ? `ok     ${file.file} (${file.workflow})`
            : [`error  ${file.file}`, ...file.errors.map((e) => `  ${e.file}:${e.line}:${e.column}: ${e.message}`)].join('\n'),
        ),
        broken.length === 0 ? `${shown.files.length} file(s) load` : `${broken.length} of ${shown.files.length} file(s) do not load`,
      ].join('\n'),
    );
  } finally {
    void local.close();
  }
}

export async function setWorkflow(ctx: Context, name: string, options: { reason?: string; force?: boolean }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'gobby workflow set');
  // The same project rule as install and the hooks: `/` or the home folder is no project, and a
  // workflow set there would apply to every folder below that has no project marker of its own.
  const home = ctx.env.HOME ?? homedir();
  const root = findProjectRoot(ctx.cwd, home);
  const refusal = projectRootRefusal(root, home);
  if (refusal && !options.force) {
    throw gobbyError('GOBBY_ERR_CLI_USAGE', `${refusal}: run this in your project's folder, or add --force to use ${root} anyway`);
  }
  const result = await callDaemon(locateDaemon(ctx.env), CONTROL_API.setWorkflow, { body: { cwd: ctx.cwd, workflow: name, reason: options.reason } });
  printResult(ctx.output, result, (shown) =>
    [
      `workflow ${shown.workflow} (${shown.definition.tier}: ${shown.definition.file}) set for ${shown.project}`,
      shown.started_sessions.length > 0
        ? `started in running session(s): ${shown.started_sessions.join(', ')}`
        : 'it applies to the next Claude Code session started in this project',
    ].join('\n'),
  );
}

export async function clearWorkflow(ctx: Context, options: { reason?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'gobby workflow clear');
  const result = await callDaemon(locateDaemon(ctx.env), CONTROL_API.clearWorkflow, { body: { cwd: ctx.cwd, reason: options.reason } });
  printResult(ctx.output, result, (shown) =>
    shown.previous_workflow
      ? `workflow ${shown.previous_workflow} cleared for ${shown.project}; new sessions run without one; running sessions keep theirs`
      : `no workflow was set for ${shown.project}`,
  );
}

export async function showStatus(ctx: Context, session: string | undefined): Promise<void> {
  const status = await callDaemon(locateDaemon(ctx.env), CONTROL_API.status, { query: { cwd: ctx.cwd, session } });
  printResult(ctx.output, status, (shown) => formatStatus(shown));
}

function formatStatus(status: StatusAnswer): string {
  const lines = [`session   ${status.session_id}${status.session.ended_at ? ' (ended)' : ''}`, `project   ${status.project ?? '?'}`];
  const problem = status.workflow_problem;
  if (status.workflow === null && problem) {
    // A selection that does not run is never "none": name it and say why.
    lines.push(`workflow  ${problem.workflow} (selected) — NOT RUNNING: ${problem.consequence}`);
  } else if (status.workflow === null) {
    lines.push(
      status.project_workflow
        ? `workflow  none yet — the project's ${status.project_workflow} starts at the session's next event`
        : 'workflow  none — choose one with: gobby workflow set <name>',
    );
  } else {
    const { pending_approval: approval } = status;
    lines.push(
      `workflow  ${status.workflow}  (${status.definition.tier}: ${status.definition.file})`,
      `phase     ${status.phase}  [${status.phases.map((p) => (p === status.phase ? `*${p}*` : p)).join(' → ')}]  for ${formatDuration(status.seconds_in_phase)}`,
      `actions   ${status.action_counts.phase} in phase, ${status.action_counts.total} in total, ${status.action_counts.blocked} blocked`,
      `allowed   ${status.allowed_tools === 'all' ? 'all tools' : status.allowed_tools.join(', ')}`,
      `blocked   ${status.blocked_tools.length > 0 ? status.blocked_tools.join(', ') : '—'}`,
      `approval  ${approval ? `pending in ${approval.phase}: "${approval.prompt}" (asked ${approval.asked_at})` : '—'}`,
      `next      ${status.way_out}`,
    );
    if (status.disabled) {
      const left = status.disabled.seconds_left === null ? '' : `, ${formatDuration(status.disabled.seconds_left)} left (until ${status.disabled.until})`;
      lines.push(`DISABLED  ${status.disabled.reason} (since ${status.disabled.at}${left}); re-enable with: gobby workflow enable`);
    }
  }
  if (problem) {
    if (status.workflow !== null) lines.push(`BROKEN    the file of ${problem.workflow} does not load: ${problem.consequence}`);
    for (const e of problem.errors) lines.push(`  error: ${e.file}:${e.line}:${e.column}: ${e.message}`);
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
  refuseInsideClaudeCode(ctx.env, 'gobby workflow phase');
  // Said before the daemon is asked, which checks it again: a usage mistake needs no session.
  if (options.force) requireReason(options.reason, 'phase --force');
  const result = await callDaemon(locateDaemon(ctx.env), CONTROL_API.changePhase, {
    body: { cwd: ctx.cwd, session: options.session, phase, force: options.force, reason: options.reason },
  });
  printResult(ctx.output, result, (shown) =>
    shown.changed
      ? `session ${shown.session_id}: ${shown.workflow} moved ${shown.from} → ${shown.to}${shown.forced ? ' (forced)' : ''}; reason recorded: ${shown.reason}`
      : `session ${shown.session_id}: ${shown.workflow} is already in the ${shown.to} phase; nothing changed (--force --reason "…" re-enters it)`,
  );
}

export async function resetWorkflow(ctx: Context, options: { reason?: string; session?: string }): Promise<void> {
  refuseInsideClaudeCode(ctx.env, 'gobby workflow reset');
  requireReason(options.reason, 'reset');
  const result = await callDaemon(locateDaemon(ctx.env), CONTROL_API.reset, {
    body: { cwd: ctx.cwd, session: options.session, reason: options.reason },
  });
  printResult(ctx.output, result, (shown) =>
    `session ${shown.session_id}: ${shown.workflow} reloaded (definition ${shown.definition_hash}) and reset from ${shown.previous_phase} to ${shown.phase}`,
  );
}

export async function setEnforcement(
  ctx: Context,
  enabled: boolean,
  options: { reason?: string; session?: string; for?: string },
): Promise<void> {
  refuseInsideClaudeCode(ctx.env, `gobby workflow ${enabled ? 'enable' : 'disable'}`);
  if (!enabled) requireReason(options.reason, 'disable');
  const result = await callDaemon(locateDaemon(ctx.env), enabled ? CONTROL_API.enable : CONTROL_API.disable, {
    body: { cwd: ctx.cwd, session: options.session, reason: options.reason, ...(options.for === undefined ? {} : { for: options.for }) },
  });
  printResult(ctx.output, result, (shown) =>
    enabled
      ? shown.changed
        ? `session ${shown.session_id}: ${shown.workflow} enforcement enabled again (phase ${shown.phase})`
        : `session ${shown.session_id}: ${shown.workflow} enforcement was not disabled; nothing changed (phase ${shown.phase})`
      : `session ${shown.session_id}: ${shown.workflow} enforcement DISABLED (reason: ${shown.reason}); ` +
        (shown.until ? `it comes back by itself at ${shown.until}, or now with: gobby workflow enable` : 're-enable with: gobby workflow enable'),
  );
}

export async function showAudit(ctx: Context, options: { tamper: boolean; session?: string; limit?: string }): Promise<void> {
  const result = await callDaemon(locateDaemon(ctx.env), CONTROL_API.audit, {
    query: { cwd: ctx.cwd, session: options.session, tamper: String(options.tamper), limit: options.limit },
  });
  // A context row's reason is everything the model was told (many lines); the table keeps one
  // row per line and shows its first line. --json has the whole text.
  const table: AuditAnswer = { ...result, rows: result.rows.map((row) => (row.decision === 'context' && row.reason ? { ...row, reason: firstLine(row.reason) } : row)) };
  printResult(ctx.output, result, () => formatAudit(visibleStrings(table)));
}

/** A text's first line, with ` …` when more follows. */
function firstLine(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  return lines.length > 1 ? `${(lines[0] ?? '').trimEnd()} …` : (lines[0] ?? '');
}

function formatAudit(audit: AuditAnswer): string {
  const scope = audit.session_id ? `session ${audit.session_id}` : `${audit.project} (all sessions)`;
  const lines = [`${audit.tamper_only ? 'tamper attempts' : 'audit log'} for ${scope}, newest first:`];
  for (const row of audit.rows) {
    const what = [row.event, row.tool].filter(Boolean).join(' ');
    lines.push(
      `  ${row.at.replace('T', ' ').slice(0, 19)}  ${(row.session_id ?? '(project)').slice(0, 8)}  ${row.decision.padEnd(7)} ${what.padEnd(28)} ` +
        `${row.phase ?? '-'}  ${row.because}${row.reason ? `  reason: ${row.reason}` : ''}  [${row.actor}]`,
    );
  }
  if (audit.rows.length === 0) lines.push('  (none)');
  return lines.join('\n');
}
