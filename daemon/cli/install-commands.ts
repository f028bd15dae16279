// gobby install | uninstall: gobby's hook entries in a Claude Code settings file.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveConfiguredPort, resolveGobbyHome } from '../../hooks/daemon-file.js';
import { buildGobbyHooks, formatClientCommand, installIntoFile, uninstallFromFile } from '../../hooks/install.js';
import { quoteForShell } from '../../hooks/shell-quote.js';
import { HOOK_CLIENT } from '../package-info.js';
import { printResult, type OutputOptions } from './output.js';

type Env = Record<string, string | undefined>;

export interface InstallTarget {
  readonly project?: string | undefined;
  readonly user?: boolean | undefined;
}

/** `.claude/settings.json` of the project (default: the working directory), or the user's file. */
function settingsPathFor(target: InstallTarget, env: Env, cwd: string): string {
  if (target.user) {
    const configDir = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude');
    return join(configDir, 'settings.json');
  }
  return join(resolve(cwd, target.project ?? '.'), '.claude', 'settings.json');
}

export async function install(target: InstallTarget & { lenient: boolean }, env: Env, cwd: string, output: OutputOptions): Promise<void> {
  const home = resolveGobbyHome(env);
  const port = resolveConfiguredPort(env, home);
  // The SessionStart client must find the same daemon as the http hooks: when the user
  // runs a non-default GOBBY_HOME, the hook command carries it, quoted so that the shell
  // expands nothing in it (a `$` or a backtick in a path is not an instruction).
  const homePrefix = env.GOBBY_HOME ? `GOBBY_HOME=${quoteForShell(home)} ` : '';
  const portPrefix = env.GOBBY_PORT ? `GOBBY_PORT=${port} ` : '';
  const clientCommand = `${homePrefix}${portPrefix}${formatClientCommand({ clientPath: HOOK_CLIENT })}`;
  const path = settingsPathFor(target, env, cwd);
  const summary = await installIntoFile({ path, gobbyHooks: buildGobbyHooks({ port, clientCommand, lenient: target.lenient }) });
  printResult(output, { ...summary, port, mode: target.lenient ? 'lenient' : 'strict' }, () =>
    [
      summary.changed ? `gobby hooks installed in ${path}` : `gobby hooks already installed in ${path} (nothing changed)`,
      `  daemon:  http://127.0.0.1:${port}  (mode: ${target.lenient ? 'lenient: a dead daemon lets tools through' : 'strict: a dead daemon blocks tools and prompts'})`,
      `  events:  ${summary.events.join(', ')}`,
      ...(summary.backupPath ? [`  backup:  ${summary.backupPath}`] : []),
      'Next: gobby workflow set <name>   (gobby workflow list shows the choices)',
    ].join('\n'),
  );
}

export async function uninstall(target: InstallTarget, env: Env, cwd: string, output: OutputOptions): Promise<void> {
  const path = settingsPathFor(target, env, cwd);
  const summary = await uninstallFromFile({ path });
  printResult(output, summary, () =>
    summary.changed
      ? `gobby hooks removed from ${path} (${summary.events.join(', ')})${summary.backupPath ? `\n  backup: ${summary.backupPath}` : ''}`
      : `no gobby hooks in ${path}; nothing changed`,
  );
}
