// gobby install | uninstall: gobby's hook entries in a Claude Code settings file.
//
// Three places, three audiences:
// - personal (default): <root>/.claude/settings.local.json, Claude Code's personal project
//   settings, which git does not track. Machine-specific entries are fine there.
// - --shared: <root>/.claude/settings.json, the file a team commits. Only portable entries:
//   `gobby` from PATH, no path of this machine, no GOBBY_HOME; lenient unless --fail-closed,
//   because a teammate without gobby would otherwise have every prompt refused.
// - --user: ~/.claude/settings.json, every project of this user.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';

import { configuredPortProblem, DEFAULT_DAEMON_PORT, resolveConfiguredPort, resolveGobbyHome } from '../../hooks/daemon-file.js';
import { gobbyError } from '../../hooks/errors.js';
import { buildGobbyHooks, hasGobbyHooks, installIntoFile, uninstallFromFile } from '../../hooks/install.js';
import { buildSessionStartCommand } from '../../hooks/session-start-command.js';
import { quoteForShell } from '../../hooks/shell-quote.js';
import type { StatusLineInstallResult, StatusLineRemovalResult } from '../../hooks/statusline-setting.js';
import { findProjectRoot, projectRootRefusal } from '../project-root.js';
import { resolveHookLauncher, type HookLauncher } from './hook-launcher.js';
import { refuseInsideClaudeCode } from './human-only.js';
import { printResult, type OutputOptions } from './output.js';

type Env = Record<string, string | undefined>;

/** What a newcomer runs in a clone of gobby to get `gobby` on PATH (README, Quick start). */
const SETUP_COMMAND = 'npm ci && npm run setup';

export type InstallScope = 'personal' | 'shared' | 'user';

export interface InstallTarget {
  /** Where to look for the project root (default: the working directory). */
  readonly project?: string | undefined;
  readonly scope: InstallScope;
  /** Accept `/` or the home folder as the project. */
  readonly force?: boolean | undefined;
}

export interface InstallOptions {
  /** Personal and user installs: fail open when the daemon is down. */
  readonly lenient: boolean;
  /** Shared installs: fail closed, for teammates without gobby too. */
  readonly failClosed: boolean;
  /** Also set Claude Code's statusLine to `gobby statusline` (false: `--no-statusline`). */
  readonly statusLine: boolean;
}

interface ResolvedTarget {
  readonly path: string;
  /** The project root; null for --user. */
  readonly root: string | null;
}

function claudeConfigDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude');
}

function projectSettingsPath(root: string, scope: 'personal' | 'shared'): string {
  return join(root, '.claude', scope === 'shared' ? 'settings.json' : 'settings.local.json');
}

function resolveTarget(target: InstallTarget, env: Env, cwd: string): ResolvedTarget {
  if (target.scope === 'user') return { path: join(claudeConfigDir(env), 'settings.json'), root: null };
  const home = env.HOME ?? homedir();
  const start = resolve(cwd, target.project ?? '.');
  // A mistyped --project would otherwise get a folder of its own, hooks and all, where no session runs.
  if (statSync(start, { throwIfNoEntry: false })?.isDirectory() !== true) {
    throw gobbyError('GOBBY_ERR_CLI_USAGE', `${start} is not a folder: give --project the folder of an existing project`);
  }
  const root = findProjectRoot(start, home);
  const refusal = projectRootRefusal(root, home);
  if (refusal && !target.force) {
    throw gobbyError('GOBBY_ERR_CLI_USAGE', `${refusal}: run this in your project's folder, or add --force to use ${root} anyway (or --user for every project)`);
  }
  return { path: projectSettingsPath(root, target.scope), root };
}

/** The message a session shows when a shared install's `gobby` is not on PATH. */
function missingGobbyMessage(scope: InstallScope, failClosed: boolean): string {
  if (scope !== 'shared') {
    return 'gobby: the hooks in your Claude Code settings call `gobby`, which is not on your PATH: workflow enforcement is OFF for this session. ' +
      `In your clone of gobby run: ${SETUP_COMMAND}`;
  }
  const consequence = failClosed
    ? 'This project requires it: prompts and tools are refused until gobby runs here.'
    : 'Its workflow is NOT enforced in this session; everything else works as usual.';
  return `This project uses gobby to hold Claude Code to a workflow, but gobby is not installed on this machine. ${consequence} ` +
    `To install it: clone gobby, run \`${SETUP_COMMAND}\` in the clone, then start a new session here (gobby's README, "For teams").`;
}

export async function install(target: InstallTarget, options: InstallOptions, env: Env, cwd: string, output: OutputOptions): Promise<void> {
  refuseInsideClaudeCode(env, 'gobby install');
  if (options.failClosed && target.scope !== 'shared') {
    throw gobbyError('GOBBY_ERR_CLI_USAGE', '--fail-closed is for --shared installs; personal and --user installs are strict unless --lenient');
  }
  if (options.lenient && options.failClosed) throw gobbyError('GOBBY_ERR_CLI_USAGE', 'choose one of --lenient and --fail-closed');
  const { path, root } = resolveTarget(target, env, cwd);
  const home = resolveGobbyHome(env);
  const portProblem = configuredPortProblem(env, home);
  // The hooks would name a port the daemon will never listen on.
  if (portProblem) throw gobbyError('GOBBY_ERR_CLI_CONFIG_INVALID', portProblem);
  const port = resolveConfiguredPort(env, home);
  const shared = target.scope === 'shared';
  const lenient = shared ? !options.failClosed : options.lenient;

  const { launcher, homePrefix } = await resolveLauncher(target.scope, env, home);
  const sessionStartCommand = buildSessionStartCommand({
    port,
    launcher: `${homePrefix}${launcher.command}`,
    home: shared ? undefined : home,
    lenient,
    missingGobbyMessage: launcher.kind === 'path' ? missingGobbyMessage(target.scope, options.failClosed) : undefined,
  });
  const summary = await installIntoFile({
    path,
    backupDir: join(home, 'backups'),
    gobbyHooks: buildGobbyHooks({ port, sessionStartCommand, lenient }),
    statusLine: options.statusLine
      ? { command: statusLineCommand(launcher, homePrefix), portable: shared, lowerPrecedence: lowerPrecedenceFiles(target.scope, root, env) }
      : undefined,
  });

  const notes: string[] = [];
  if (shared && port !== DEFAULT_DAEMON_PORT) {
    notes.push(`note: these hooks post to port ${port}, not gobby's default ${DEFAULT_DAEMON_PORT}: every teammate's daemon must use port ${port} too (GOBBY_PORT or "port" in $GOBBY_HOME/config.json).`);
  }
  if (!shared && launcher.kind === 'clone') {
    notes.push(
      launcher.found
        ? `note: the \`gobby\` on your PATH (${launcher.found}) is not this gobby; the hooks name this clone. Run \`npm run setup\` here to fix PATH.`
        : 'note: gobby is not on PATH; the hooks name this clone. After `npm run setup`, run gobby install again so they call `gobby`.',
    );
  }
  if (root !== null && !shared && !isIgnoredByGit(root, path)) {
    notes.push(`note: git does not ignore ${relative(root, path)}: add it to .gitignore (it holds this machine's settings).`);
  }
  if (root !== null && resolve(cwd) !== root) notes.push(`note: the project root is ${root}: start \`claude\` there, where Claude Code reads .claude/.`);
  const mode = lenient ? 'lenient: a dead daemon lets tools through' : 'strict: a dead daemon blocks tools and prompts';
  const audience = { personal: 'personal: only you', shared: 'shared: everyone who uses this project; commit it', user: 'user: every project of yours' }[target.scope];

  printResult(output, { ...summary, scope: target.scope, root, port, mode: lenient ? 'lenient' : 'strict', launcher: launcher.command, notes }, () =>
    [
      summary.changed ? `gobby hooks installed in ${path}` : `gobby hooks already installed in ${path} (nothing changed)`,
      `  for:     ${audience}`,
      `  daemon:  http://127.0.0.1:${port}  (mode: ${mode})`,
      `  events:  ${summary.events.join(', ')}`,
      statusLineReport(summary.statusLine, path),
      ...(summary.backupPath ? [`  backup:  ${summary.backupPath}`] : []),
      ...notes,
      shared
        ? 'Next: commit .claude/settings.json; each teammate runs `npm run setup` in a clone of gobby (README, "For teams").'
        : 'Next: gobby workflow set <name>   (gobby workflow list shows the choices)',
    ].join('\n'),
  );
}

/**
 * What the hook commands call to run gobby. A shared file names only `gobby` from PATH. A
 * personal one names this gobby as found (see hook-launcher.ts) and must find the same daemon
 * as its http hooks: a non-default GOBBY_HOME goes into the command, quoted so that the shell
 * expands nothing in it.
 */
async function resolveLauncher(scope: InstallScope, env: Env, home: string): Promise<{ launcher: HookLauncher; homePrefix: string }> {
  if (scope === 'shared') return { launcher: { kind: 'path', command: 'gobby', found: '' }, homePrefix: '' };
  return { launcher: await resolveHookLauncher(env), homePrefix: env.GOBBY_HOME ? `GOBBY_HOME=${quoteForShell(home)} ` : '' };
}

/**
 * The files whose status line one in the target hides (Claude Code: local > project > user),
 * highest first. Only a personal install chains them: a team's file must not carry one
 * person's status line, and nothing is below the user's file.
 */
function lowerPrecedenceFiles(scope: InstallScope, root: string | null, env: Env): string[] {
  if (scope !== 'personal' || root === null) return [];
  return [projectSettingsPath(root, 'shared'), join(claudeConfigDir(env), 'settings.json')];
}

/** The status line command install writes (before any `--then` chaining or the shared wrapper). */
function statusLineCommand(launcher: HookLauncher, homePrefix: string): string {
  return `${homePrefix}${launcher.command} statusline`;
}

/** The install output's status line row; a skipped one is a warning that names what to fix. */
function statusLineReport(statusLine: StatusLineInstallResult, path: string): string {
  switch (statusLine.result) {
    case 'added':
      return `  status:  status line added: ${statusLine.command}`;
    case 'chained':
      return `  status:  status line chained with yours${statusLine.from ? ` (from ${statusLine.from})` : ''}: yours runs first, gobby's line shows below it`;
    case 'already':
      return `  status:  status line already there${statusLine.from ? ` (in ${statusLine.from})` : ''}`;
    case 'skipped':
      return statusLine.reason === 'not-asked'
        ? '  status:  status line not set (--no-statusline)'
        : `warning: the statusLine in ${path} is not {"type": "command", "command": "…"}, so gobby left it alone and did not add its own; ` +
            'fix it, then run gobby install again (the hooks are installed either way)';
  }
}

/** True when git ignores `path`, or `root` is not a git work tree (nothing to warn about). */
function isIgnoredByGit(root: string, path: string): boolean {
  const run = spawnSync('git', ['check-ignore', '-q', '--', relative(root, path)], { cwd: root, stdio: 'ignore' });
  // 0: ignored; 1: not ignored; 128 or no git: not a work tree, or git is missing.
  return run.status !== 1;
}

const STATUS_LINE_REMOVAL: Record<StatusLineRemovalResult, string> = {
  removed: "  status line: gobby's removed",
  restored: '  status line: yours is back as it was',
  none: '',
  'not-gobbys': "  status line: not gobby's, left as it is",
};

export async function uninstall(target: InstallTarget, env: Env, cwd: string, output: OutputOptions): Promise<void> {
  refuseInsideClaudeCode(env, 'gobby uninstall');
  const { path, root } = resolveTarget(target, env, cwd);
  const home = resolveGobbyHome(env);
  // The command install would write here, so that a status line command that does not name
  // gobby (a launcher elsewhere) is still recognised as ours.
  const { launcher, homePrefix } = await resolveLauncher(target.scope, env, home);
  const summary = await uninstallFromFile({
    path,
    backupDir: join(home, 'backups'),
    statusLineCommand: statusLineCommand(launcher, homePrefix),
    lowerPrecedence: lowerPrecedenceFiles(target.scope, root, env),
  });
  // Uninstall touches one file, like install: a personal uninstall must not edit the file the team commits.
  let hint: string | null = null;
  if (!summary.changed && root !== null) {
    const other = target.scope === 'shared' ? 'personal' : 'shared';
    if (await hasGobbyHooks(projectSettingsPath(root, other))) {
      hint = `${projectSettingsPath(root, other)} has gobby hooks: gobby uninstall${other === 'shared' ? ' --shared' : ''} removes them`;
    }
  }
  printResult(output, { ...summary, scope: target.scope, hint }, () =>
    [
      summary.changed
        ? `gobby ${summary.events.length > 0 ? `hooks removed from ${path} (${summary.events.join(', ')})` : `status line removed from ${path}`}` +
          `${summary.removed ? '; nothing else was in it, so the file is gone' : ''}`
        : `no gobby hooks in ${path}; nothing changed`,
      ...(STATUS_LINE_REMOVAL[summary.statusLine] ? [STATUS_LINE_REMOVAL[summary.statusLine]] : []),
      ...(summary.backupPath ? [`  backup: ${summary.backupPath}`] : []),
      ...(hint ? [hint] : []),
    ].join('\n'),
  );
}
