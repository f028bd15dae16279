// The `gobby` command. It talks to the daemon over HTTP; only `daemon start --foreground`
// runs the daemon in this process.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { gobbyError } from '../../hooks/errors.js';
import { DAEMON_MAIN, PACKAGE_VERSION } from '../package-info.js';
import type { InstallScope, InstallTarget } from './install-commands.js';
import { printFailure } from './output.js';

// Each command's module loads when that command runs (`import(…).then((commands) => …)`, a form
// the unused-export check follows): `gobby workflow status` then loads the HTTP client and its
// contracts, not the workflow engine, the installer or yaml, jexl and unbash (about 0.4 s → 0.27 s
// a call here; scripts call gobby often).

const env = process.env;
const cwd = process.cwd();
const jsonOption = () => new Option('--json', 'print machine-readable JSON');
const sessionOption = () => new Option('--session <id>', 'the session to act on (default: the most recently active one in this project)');
const reasonOption = (required: string) => new Option('--reason <text>', `why (recorded in the audit log)${required}`);

/** Whether the command asked for --json, errors included; settled for certain once commander parsed the options. */
let jsonOutput = process.argv.slice(2).includes('--json');

const program = new Command()
  .name('gobby')
  // Set before any subcommand exists, so that every subcommand inherits it: commander's own
  // usage errors then leave through the one error printer below instead of its own.
  .exitOverride()
  .configureOutput({ outputError: () => undefined })
  .description(
    'Hold Claude Code to a workflow. The gobby daemon receives every hook event, keeps each ' +
      "session's phase in SQLite, refuses tools the phase does not allow and tells the model why.",
  )
  .version(PACKAGE_VERSION)
  .addHelpText(
    'after',
    '\nQuick start:\n  gobby daemon start\n  gobby install              # in your project: adds your hooks to .claude/settings.local.json\n  gobby workflow set plan-execute\n  gobby workflow status      # while Claude Code runs\n\nEnvironment: GOBBY_HOME (default ~/.gobby), GOBBY_PORT (default 7377).',
  )
  .hook('preAction', (_program, action) => {
    jsonOutput = action.opts<{ json?: boolean }>().json === true;
  });

const daemon = program.command('daemon').description('start, stop and inspect the gobby daemon (one per GOBBY_HOME)');
daemon
  .command('start')
  .description('start the daemon in the background and return once it answers; says so if it is already running')
  .option('--foreground', 'run in this terminal and log to stdout too (for debugging); Ctrl-C stops it')
  .addOption(jsonOption())
  .action(async (options: { foreground?: boolean; json?: boolean }) => {
    if (options.foreground) {
      // Started without the daemon's node flags (as the CLI is), the command runs itself again with them.
      const exitCode = await import('./foreground.js').then((foreground) => (foreground.hasDaemonFlags() ? undefined : foreground.rerunWithDaemonFlags(env)));
      if (exitCode !== undefined) {
        process.exitCode = exitCode;
        return;
      }
      const { runDaemon } = await import('../main.js');
      await runDaemon({ foreground: true, env });
      return;
    }
    await import('./daemon-commands.js').then((commands) => commands.startDaemon(env, { json: !!options.json }));
  });
daemon
  .command('stop')
  .description('stop the running daemon (state is in SQLite and survives)')
  .addOption(jsonOption())
  .action((options: { json?: boolean }) => import('./daemon-commands.js').then((commands) => commands.stopDaemon(env, { json: !!options.json })));
daemon
  .command('status')
  .description('pid, port, version, uptime, database path and active sessions')
  .addOption(jsonOption())
  .action((options: { json?: boolean }) => import('./daemon-commands.js').then((commands) => commands.daemonStatus(env, { json: !!options.json })));

program
  .command('setup')
  .description('put a `gobby` launcher on your PATH (default ~/.local/bin; no root needed) and start the daemon')
  .option('--bin-dir <dir>', 'where to put the launcher (default: ~/.local/bin, or ~/bin when only that is on PATH)')
  .option('--force', 'replace a `gobby` in that folder that setup did not write')
  .option('--remove', 'remove the launcher instead (the daemon and your projects are left alone)')
  .option('--no-start', 'do not start the daemon (the first Claude Code session starts it)')
  .addOption(jsonOption())
  .action((options: { binDir?: string; force?: boolean; remove?: boolean; start: boolean; json?: boolean }) =>
    import('./setup-command.js').then((commands) => commands.setup({ binDir: options.binDir, force: !!options.force, remove: !!options.remove, start: options.start }, env, { json: !!options.json })),
  );

/** --user, --shared or neither (personal); both is a usage error. */
function installScope(options: { user?: boolean; shared?: boolean }): InstallScope {
  if (options.user && options.shared) throw gobbyError('GOBBY_ERR_CLI_USAGE', 'choose one of --user and --shared');
  return options.user ? 'user' : options.shared ? 'shared' : 'personal';
}

interface InstallCliOptions {
  project?: string;
  user?: boolean;
  shared?: boolean;
  force?: boolean;
  lenient?: boolean;
  failClosed?: boolean;
  /** Commander's `--no-statusline`: false when given. */
  statusline?: boolean;
  json?: boolean;
}

function installTarget(options: InstallCliOptions): InstallTarget {
  if (options.project && options.user) throw gobbyError('GOBBY_ERR_CLI_USAGE', 'choose one of --project and --user');
  return { project: options.project, scope: installScope(options), force: !!options.force };
}

program
  .command('install')
  .description(
    "add gobby's hooks and status line to Claude Code's settings: your personal project settings (.claude/settings.local.json) unless --shared or --user " +
      '(idempotent; keeps your other settings and formatting, and chains a status line you already have; backs up what it replaces under $GOBBY_HOME/backups)',
  )
  .option('--project <dir>', 'start looking for the project root here (default: the current directory)')
  .option('--shared', "write the team's .claude/settings.json instead: portable entries only (`gobby` from PATH), lenient unless --fail-closed")
  .option('--user', 'edit your user settings (~/.claude/settings.json) instead: gobby then sees every project')
  .option('--lenient', 'personal and --user installs: fail open, so tools and prompts go ahead when the daemon is down (default: strict)')
  .option('--fail-closed', '--shared only: a dead daemon, or a teammate without gobby, blocks prompts and tools')
  .option('--no-statusline', "leave Claude Code's statusLine alone (default: set it to `gobby statusline`, chained with yours if you have one)")
  .option('--force', 'accept / or your home folder as the project')
  .addOption(jsonOption())
  .addHelpText(
    'after',
    '\nThe project root is the git root, else the nearest folder up with .claude/ or .gobby/, else this folder.\n' +
      'Examples:\n  gobby install                    # just you, this project\n  gobby install --shared           # the team: commit .claude/settings.json\n  gobby install --shared --fail-closed',
  )
  .action((options: InstallCliOptions) =>
    import('./install-commands.js').then((commands) => commands.install(installTarget(options), { lenient: !!options.lenient, failClosed: !!options.failClosed, statusLine: options.statusline !== false }, env, cwd, { json: !!options.json })),
  );
program
  .command('uninstall')
  .description(
    "remove exactly gobby's hooks and status line from the file `install` with the same flags wrote (your own status line comes back); what was around them is left byte for byte",
  )
  .option('--project <dir>', 'start looking for the project root here (default: the current directory)')
  .option('--shared', "the team's .claude/settings.json (default: your .claude/settings.local.json)")
  .option('--user', 'your user settings instead')
  .option('--force', 'accept / or your home folder as the project')
  .addOption(jsonOption())
  .action((options: InstallCliOptions) => import('./install-commands.js').then((commands) => commands.uninstall(installTarget(options), env, cwd, { json: !!options.json })));

// Normally dispatched by main.ts before this file loads; declared here for --help.
program
  .command('hook <event>')
  .description("the hook client Claude Code runs (SessionStart's fallback): reads the event JSON on stdin, starts the daemon if needed")
  .option('--port <n>', 'the port the hooks were installed with')
  .option('--lenient', 'never block when the daemon cannot answer')
  .action(async () => {
    const { runClientProcess } = await import('../../hooks/client.js');
    await runClientProcess(process.argv.slice(process.argv.indexOf('hook') + 1), DAEMON_MAIN);
  });

program
  .command('statusline')
  .description("one line for Claude Code's status line: workflow, phase, pending approval, this turn's refusals, enforcement")
  .option('--then <command>', 'run your previous status line command first (same stdin) and print its lines above gobby\'s')
  .addOption(jsonOption())
  .action(async (options: { then?: string; json?: boolean }) => {
    // Normally `gobby statusline` never gets here: main.ts dispatches it before this file loads.
    const { statusLineMain } = await import('./statusline-command.js');
    await statusLineMain([...(options.json ? ['--json'] : []), ...(options.then === undefined ? [] : ['--then', options.then])]);
  });

const workflow = program
  .command('workflow')
  .description("choose a project's workflow, see a session's state, and override it (humans only)");
workflow
  .command('list')
  .description('workflows visible from this project: project .gobby/workflows/ > $GOBBY_HOME/workflows/ > built-in; exit 1 if a file does not load (works without a daemon)')
  .addOption(jsonOption())
  .action((options: { json?: boolean }) => import('./workflow-commands.js').then((commands) => commands.listWorkflows({ env, cwd, output: { json: !!options.json } })));
workflow
  .command('show <name>')
  .description("a workflow's phases, tools and transitions, and its load errors (works without a daemon)")
  .addOption(jsonOption())
  .action((name: string, options: { json?: boolean }) => import('./workflow-commands.js').then((commands) => commands.showWorkflow({ env, cwd, output: { json: !!options.json } }, name)));
workflow
  .command('validate [target]')
  .description('check that workflow files load, without a daemon: a file path, a workflow name, or every file in every tier; exit 1 if one does not')
  .addOption(jsonOption())
  .action((target: string | undefined, options: { json?: boolean }) => import('./workflow-commands.js').then((commands) => commands.validateWorkflows({ env, cwd, output: { json: !!options.json } }, target)));
workflow
  .command('set <name>')
  .description("make <name> this project's workflow: new sessions and running sessions without one get it (audited)")
  .addOption(reasonOption(''))
  .option('--force', 'accept / or your home folder as the project')
  .addOption(jsonOption())
  .action((name: string, options: { reason?: string; force?: boolean; json?: boolean }) =>
    import('./workflow-commands.js').then((commands) => commands.setWorkflow({ env, cwd, output: { json: !!options.json } }, name, { reason: options.reason, force: !!options.force })),
  );
workflow
  .command('clear')
  .description("remove this project's workflow: new sessions run without one, running sessions keep theirs (audited)")
  .addOption(reasonOption(' (required)'))
  .addOption(jsonOption())
  .action((options: { reason?: string; json?: boolean }) => import('./workflow-commands.js').then((commands) => commands.clearWorkflow({ env, cwd, output: { json: !!options.json } }, { reason: options.reason })));
workflow
  .command('status')
  .description("a session's workflow, phase, time in phase, counts, tools, pending approval and last decisions")
  .addOption(sessionOption())
  .addOption(jsonOption())
  .action((options: { session?: string; json?: boolean }) => import('./workflow-commands.js').then((commands) => commands.showStatus({ env, cwd, output: { json: !!options.json } }, options.session)));
workflow
  .command('phase <name>')
  .description(
    'move the session to phase <name>; without --force only along a step the definition draws from the current phase: a transition (your command stands in for the event its `when` waits for) or the next phase once its exit conditions hold (an approval it waits for counts as given)',
  )
  .option('--force', 'move now whatever the definition says (needs --reason; audited)')
  .addOption(reasonOption(', required with --force'))
  .addOption(sessionOption())
  .addOption(jsonOption())
  .action((name: string, options: { force?: boolean; reason?: string; session?: string; json?: boolean }) =>
    import('./workflow-commands.js').then((commands) => commands.changePhase({ env, cwd, output: { json: !!options.json } }, name, { force: !!options.force, reason: options.reason, session: options.session })),
  );
workflow
  .command('reset')
  .description("reload the session's workflow definition from disk and return to its first phase (audited)")
  .addOption(reasonOption(' (required)'))
  .addOption(sessionOption())
  .addOption(jsonOption())
  .action((options: { reason?: string; session?: string; json?: boolean }) =>
    import('./workflow-commands.js').then((commands) => commands.resetWorkflow({ env, cwd, output: { json: !!options.json } }, { reason: options.reason, session: options.session })),
  );
workflow
  .command('disable')
  .description('suspend enforcement for the session: everything is allowed and still audited')
  .addOption(reasonOption(' (required)'))
  .option('--for <duration>', 'enforcement comes back by itself after this long: 90s, 30m, 2h (at most 168h)')
  .addOption(sessionOption())
  .addOption(jsonOption())
  .addHelpText('after', '\nExample:\n  gobby workflow disable --for 30m --reason "hotfix by hand"\n`gobby workflow status` shows the time left.')
  .action((options: { reason?: string; for?: string; session?: string; json?: boolean }) =>
    import('./workflow-commands.js').then((commands) => commands.setEnforcement({ env, cwd, output: { json: !!options.json } }, false, {
      reason: options.reason,
      session: options.session,
      ...(options.for === undefined ? {} : { for: options.for }),
    })),
  );
workflow
  .command('enable')
  .description('resume enforcement for the session')
  .addOption(reasonOption(''))
  .addOption(sessionOption())
  .addOption(jsonOption())
  .action((options: { reason?: string; session?: string; json?: boolean }) =>
    import('./workflow-commands.js').then((commands) => commands.setEnforcement({ env, cwd, output: { json: !!options.json } }, true, { reason: options.reason, session: options.session })),
  );

workflow
  .command('audit')
  .description("the audit log, newest first: this project's sessions and project events, or one session's")
  .option('--tamper', 'only tamper attempts (tamper:*): overrides from the agent, forged hook events, gobby\'s own ground')
  .option('--session <id>', 'only this session (default: every session of this project)')
  .addOption(new Option('--limit <n>', 'how many rows, 1 to 1000 (default 50)').argParser(auditRowLimit))
  .addOption(jsonOption())
  .addHelpText(
    'after',
    '\nEach row: time, session, decision, event and tool, phase, why, the reason given, and who [actor].\n' +
      'Examples:\n  gobby workflow audit --tamper\n  gobby workflow audit --session <id> --limit 200 --json',
  )
  .action((options: { tamper?: boolean; session?: string; limit?: string; json?: boolean }) =>
    import('./workflow-commands.js').then((commands) => commands.showAudit({ env, cwd, output: { json: !!options.json } }, {
      tamper: !!options.tamper,
      ...(options.session === undefined ? {} : { session: options.session }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    })),
  );

/** `--limit`: checked here, so a typo is a usage error and not the daemon's answer to a bad query. */
function auditRowLimit(value: string): string {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw new InvalidArgumentError('Give a whole number from 1 to 1000.');
  return value;
}

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // --help, --version, and `gobby` alone (which prints the help): commander has said it all.
    if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)) process.exit(error.exitCode);
    const problem = error.message.replace(/^error: /, '');
    error = gobbyError('GOBBY_ERR_CLI_USAGE', `${problem} (run with --help for usage)`);
  }
  process.exit(printFailure({ json: jsonOutput }, error));
});
