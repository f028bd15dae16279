// gobby setup: puts a `gobby` launcher on the user's PATH, without root, and starts the daemon.
//
// `npm link` would need write access to npm's global prefix and hard-wires the clone's path
// into whatever links to it. Instead the launcher is a two-line sh script in a folder of the
// user's own (~/.local/bin by default) that execs this clone's CLI with this Node. Hook
// commands then name `gobby`, not the clone: moving the clone means running setup again,
// not reinstalling every project.
import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

import { ensureDaemon } from '../../hooks/daemon-locator.js';
import { GobbyError } from '../../hooks/errors.js';
import { quoteForShell } from '../../hooks/shell-quote.js';
import { CLI_MAIN, DAEMON_MAIN } from '../package-info.js';
import { refuseInsideClaudeCode } from './human-only.js';
import { printResult, type OutputOptions } from './output.js';

type Env = Record<string, string | undefined>;

/** The second line of every launcher setup writes: how setup recognises its own file. */
const LAUNCHER_MARKER = '# gobby launcher, written by `gobby setup`';

export interface SetupOptions {
  /** Where to put the launcher; default: the first of ~/.local/bin, ~/bin that is on PATH, else ~/.local/bin. */
  readonly binDir?: string | undefined;
  /** Replace a `gobby` in that folder that setup did not write. */
  readonly force: boolean;
  /** Remove the launcher instead. */
  readonly remove: boolean;
  /** Start the daemon once the launcher is in place. */
  readonly start: boolean;
}

interface LauncherPlan {
  readonly path: string;
  readonly binDir: string;
  readonly onPath: boolean;
}

/** The folders on PATH, resolved, so that `~/.local/bin/` and `~/.local/bin` compare equal. */
function pathFolders(env: Env): string[] {
  return (env.PATH ?? '').split(delimiter).filter((entry) => entry !== '').map((entry) => resolve(entry));
}

function planLauncher(env: Env, binDir: string | undefined): LauncherPlan {
  const home = env.HOME ?? homedir();
  const onPathFolders = pathFolders(env);
  const candidates = [join(home, '.local', 'bin'), join(home, 'bin')];
  const chosen = binDir !== undefined ? resolve(binDir) : (candidates.find((dir) => onPathFolders.includes(dir)) ?? candidates[0]!);
  return { binDir: chosen, path: join(chosen, 'gobby'), onPath: onPathFolders.includes(chosen) };
}

/** The launcher's text: this Node and this clone's CLI, each quoted so the shell expands nothing in them. */
export function launcherScript(nodePath: string, cliMain: string): string {
  return `#!/bin/sh\n${LAUNCHER_MARKER} from ${cliMain.replace(/\n/g, ' ')}\nexec ${quoteForShell(nodePath)} ${quoteForShell(cliMain)} "$@"\n`;
}

export function isGobbyLauncher(text: string): boolean {
  return text.split('\n', 3)[1]?.startsWith(LAUNCHER_MARKER) === true;
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes (or removes) the launcher; returns what it did. Never touches a `gobby` it did not write unless forced. */
async function applyLauncher(plan: LauncherPlan, options: SetupOptions): Promise<'written' | 'unchanged' | 'removed' | 'absent'> {
  const existing = await readIfExists(plan.path);
  const ours = existing !== null && isGobbyLauncher(existing);
  if (existing !== null && !ours && !options.force) {
    throw new GobbyError(
      'GOBBY_ERR_SETUP_NOT_OURS',
      `${plan.path} exists and was not written by gobby setup; left untouched (--force replaces it, --bin-dir DIR puts gobby elsewhere)`,
    );
  }
  if (options.remove) {
    if (existing === null) return 'absent';
    await rm(plan.path);
    return 'removed';
  }
  const script = launcherScript(process.execPath, CLI_MAIN);
  if (existing === script) return 'unchanged';
  await mkdir(plan.binDir, { recursive: true });
  // Written beside the target and renamed over it, so a `gobby` running right now never sees half a file.
  const temporary = `${plan.path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, script, { mode: 0o755 });
  await chmod(temporary, 0o755);
  await rename(temporary, plan.path);
  return 'written';
}

/** One line on the daemon: started, already running, or why it did not start (setup itself still succeeded). */
async function startDaemonForSetup(env: Env): Promise<string> {
  const result = await ensureDaemon({ env, daemonMain: DAEMON_MAIN, startupTimeoutMs: 15_000 });
  if (result.kind === 'failed') return `the daemon did not start: ${result.why.trim()} (try: gobby daemon start)`;
  const state = result.kind === 'started' ? 'started' : 'already running';
  return `daemon ${state}: pid ${result.identity.pid}, http://127.0.0.1:${result.port}, GOBBY_HOME=${result.identity.home}`;
}

export async function setup(options: SetupOptions, env: Env, output: OutputOptions): Promise<void> {
  refuseInsideClaudeCode(env, 'gobby setup');
  const plan = planLauncher(env, options.binDir);
  const outcome = await applyLauncher(plan, options);
  const daemon = options.remove || !options.start ? null : await startDaemonForSetup(env);
  const pathHint = `add it to your PATH, e.g. in ~/.profile:  export PATH="${plan.binDir}:$PATH"`;
  printResult(output, { launcher: plan.path, outcome, onPath: plan.onPath, daemon }, () => {
    const lines = [
      {
        written: `gobby launcher written: ${plan.path}`,
        unchanged: `gobby launcher already in place: ${plan.path}`,
        removed: `gobby launcher removed: ${plan.path}`,
        absent: `no gobby launcher at ${plan.path}; nothing to remove`,
      }[outcome],
    ];
    if (!options.remove) {
      lines.push(plan.onPath ? `  ${plan.binDir} is on your PATH: run \`gobby\` from any folder` : `  ${plan.binDir} is not on your PATH: ${pathHint}`);
      if (daemon !== null) lines.push(`  ${daemon}`);
      lines.push('Next, in a project:  gobby install && gobby workflow set plan-execute');
    }
    return lines.join('\n');
  });
}
