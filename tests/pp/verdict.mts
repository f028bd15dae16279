import { checkProtectedGround } from '../../dist/workflows/guards.js';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
const HOME = '/home/dev', PROJECT = '/home/dev/app', GOBBY_HOME = `${HOME}/.gobby`, PORT = 7377;
const ground: any = {
  secretFiles: [`${GOBBY_HOME}/token`],
  protectedPaths: [GOBBY_HOME, `${PROJECT}/.gobby`, ...['settings.json', 'settings.local.json'].flatMap((f) => [`${PROJECT}/.claude/${f}`, `${HOME}/.claude/${f}`]), '/etc/claude-code', `${HOME}/.local/bin/gobby`],
  protectedFolders: [`${PROJECT}/.claude`, `${HOME}/.claude`],
  protectedNames: ['.claude/settings.json', '.claude/settings.local.json', '.gobby', 'GOBBY_HOME', GOBBY_HOME, 'managed-settings', 'disableAllHooks'],
  daemonPort: PORT, daemonPid: 4242,
  daemonProcess: { names: ['node'], commandLine: '/usr/bin/node --max-semi-space-size=4 /opt/tools/gobby/dist/daemon/main.js' },
};
for (const command of process.argv.slice(2)) {
  const shell = analyzeShellCommand(command, { cwd: PROJECT, home: HOME, projectRoot: PROJECT, gobbyHome: GOBBY_HOME });
  const v = checkProtectedGround({ name: 'PreToolUse', toolName: 'Bash', toolInput: { command } } as any, ground, shell);
  console.log((v?.kind ?? 'allowed').padEnd(16), command, v ? '' : JSON.stringify(shell.effects.map((e: any) => e.kind + ' ' + (e.path?.path ?? e.why ?? ''))));
}
