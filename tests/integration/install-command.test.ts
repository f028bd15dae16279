// `gobby install` / `uninstall` run as a user runs them (the built CLI, its own HOME and
// GOBBY_HOME): which file, what goes in it, where the backup goes, which project.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GOBBY_CLI } from '../support/gobby-process.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `<tmp>/home` (HOME and GOBBY_HOME under it) and `<tmp>/home/code/app` (a git project with `src/`). */
function machine(): { home: string; gobbyHome: string; app: string } {
  const root = mkdtempSync(join(tmpdir(), 'gobby-install-cli-'));
  dirs.push(root);
  const home = join(root, 'home');
  const app = join(home, 'code', 'app');
  mkdirSync(join(app, '.git'), { recursive: true });
  mkdirSync(join(app, 'src'));
  return { home, gobbyHome: join(home, '.gobby'), app };
}

function gobby(args: readonly string[], cwd: string, home: string): Promise<Run> {
  return new Promise((resolve) => {
    // A PATH without any `gobby`, so the hooks name this clone.
    const env = { PATH: '/usr/bin:/bin', HOME: home, GOBBY_HOME: join(home, '.gobby'), GOBBY_PORT: '7399' };
    execFile(process.execPath, [GOBBY_CLI, ...args], { cwd, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The SessionStart command gobby wrote into a settings file's text. */
function sessionStartCommand(settingsText: string): string {
  const settings = JSON.parse(settingsText) as { hooks: { SessionStart: { hooks: { command: string }[] }[] } };
  return settings.hooks.SessionStart[0]!.hooks[0]!.command;
}

describe('gobby install', () => {
  it('is personal by default: the root\'s .claude/settings.local.json, even from src/, and settings.json is left alone', async () => {
    const { home, app } = machine();
    const shared = join(app, '.claude', 'settings.json');
    mkdirSync(join(app, '.claude'));
    writeFileSync(shared, '{"model": "opus"}\n');
    const run = await gobby(['install'], join(app, 'src'), home);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(join(app, '.claude', 'settings.local.json'));
    expect(run.stdout).toContain('gobby is not on PATH; the hooks name this clone');
    expect(run.stdout).toContain(`the project root is ${app}`);
    expect(existsSync(join(app, 'src', '.claude'))).toBe(false);
    expect(readFileSync(shared, 'utf8')).toBe('{"model": "opus"}\n');
    const local = readFileSync(join(app, '.claude', 'settings.local.json'), 'utf8');
    expect(local).toContain(GOBBY_CLI);
    expect(local).toContain('"onFailure": "block"');
  });

  it('--shared writes portable, lenient entries; --fail-closed makes them block', async () => {
    const { home, gobbyHome, app } = machine();
    const installed = await gobby(['install', '--shared'], app, home);
    expect(installed.code).toBe(0);
    // This machine's daemon is on 7399: the team is told everyone needs that port.
    expect(installed.stdout).toContain("port 7399, not gobby's default 7377");
    const lenient = readFileSync(join(app, '.claude', 'settings.json'), 'utf8');
    for (const local of [GOBBY_CLI, process.execPath, gobbyHome, 'x-gobby-home']) expect(lenient).not.toContain(local);
    expect(lenient).not.toContain('onFailure');
    expect(sessionStartCommand(lenient)).toContain('| gobby hook SessionStart --port 7399 --lenient');
    expect(sessionStartCommand(lenient)).toMatch(/ # gobby-hook$/);
    expect((await gobby(['install', '--shared', '--fail-closed'], app, home)).code).toBe(0);
    const strict = readFileSync(join(app, '.claude', 'settings.json'), 'utf8');
    expect(strict).toContain('"onFailure": "block"');
    expect(sessionStartCommand(strict)).toContain("| gobby hook SessionStart --port 7399'");
    expect(sessionStartCommand(strict)).not.toContain('--lenient');
    expect(strict).toContain('prompts and tools are refused until gobby runs here');
    expect((await gobby(['install', '--fail-closed'], app, home)).stderr).toContain('--fail-closed is for --shared installs');
  });

  it('backs up the file it changes under $GOBBY_HOME/backups and names it; nothing is left in .claude/', async () => {
    const { home, gobbyHome, app } = machine();
    mkdirSync(join(app, '.claude'));
    const original = '{\n\t"model": "opus"\n}\n';
    writeFileSync(join(app, '.claude', 'settings.local.json'), original);
    const run = await gobby(['install', '--json'], app, home);
    const { backupPath } = JSON.parse(run.stdout) as { backupPath: string };
    expect(backupPath.startsWith(join(gobbyHome, 'backups'))).toBe(true);
    expect(backupPath).toContain('settings.local.json.');
    expect(readFileSync(backupPath, 'utf8')).toBe(original);
    expect(readdirSync(join(app, '.claude'))).toEqual(['settings.local.json']);
    const uninstall = await gobby(['uninstall'], app, home);
    expect(uninstall.stdout).toContain('backup: ');
    expect(readFileSync(join(app, '.claude', 'settings.local.json'), 'utf8')).toBe(original);
  });

  it('refuses the home folder and / as a project unless --force', async () => {
    const { home } = machine();
    for (const cwd of [home, '/']) {
      const run = await gobby(['install'], cwd, home);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is your home folder|is the file system root/);
      expect(run.stderr).toContain('--force');
    }
    expect(existsSync(join(home, '.claude', 'settings.local.json'))).toBe(false);
    expect((await gobby(['install', '--force'], home, home)).code).toBe(0);
    expect(existsSync(join(home, '.claude', 'settings.local.json'))).toBe(true);
  });
});

describe('gobby workflow set', () => {
  it('refuses the home folder and / as a project, as install does, unless --force', async () => {
    const { home } = machine();
    for (const cwd of [home, '/']) {
      const run = await gobby(['workflow', 'set', 'plan-execute'], cwd, home);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is your home folder|is the file system root/);
      expect(run.stderr).toContain('[GOBBY_ERR_CLI_USAGE]');
    }
    // Forced, it goes on to the daemon, which is not running here: exit 2, not the refusal.
    const forced = await gobby(['workflow', 'set', 'plan-execute', '--force'], home, home);
    expect(forced.code).toBe(2);
    expect(forced.stderr).not.toMatch(/is your home folder/);
  });
});

describe('gobby uninstall', () => {
  it('touches only the file of its flag, and points at the other one when that has the hooks', async () => {
    const { home, app } = machine();
    await gobby(['install', '--shared'], app, home);
    const run = await gobby(['uninstall'], app, home);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no gobby hooks in');
    expect(run.stdout).toContain('gobby uninstall --shared removes them');
    expect(existsSync(join(app, '.claude', 'settings.json'))).toBe(true);
    expect((await gobby(['uninstall', '--shared'], app, home)).stdout).toContain('the file is gone');
    expect(existsSync(join(app, '.claude', 'settings.json'))).toBe(false);
  });
});

describe('gobby install: the status line', () => {
  it('chains the status line you already see (here from ~/.claude), reports it, and uninstall leaves your files as they were', async () => {
    const { home, app } = machine();
    mkdirSync(join(home, '.claude'));
    const userFile = join(home, '.claude', 'settings.json');
    const userSettings = '{\n  "statusLine": { "type": "command", "command": "~/.claude/line.sh", "padding": 0 }\n}\n';
    writeFileSync(userFile, userSettings);
    const run = await gobby(['install', '--json'], app, home);
    expect(run.code, run.stderr).toBe(0);
    const { statusLine } = JSON.parse(run.stdout) as { statusLine: { result: string; command: string; from: string } };
    expect(statusLine).toMatchObject({ result: 'chained', from: userFile });
    // Without `gobby` on PATH, this clone's CLI, and the GOBBY_HOME of its hooks.
    expect(statusLine.command).toContain(GOBBY_CLI);
    expect(statusLine.command).toMatch(/^GOBBY_HOME=.* statusline --then '~\/\.claude\/line\.sh'$/);
    const local = join(app, '.claude', 'settings.local.json');
    expect(JSON.parse(readFileSync(local, 'utf8')).statusLine).toEqual({ type: 'command', command: statusLine.command, padding: 0 });
    expect((await gobby(['install'], app, home)).stdout).toContain('status line already there');
    const uninstall = await gobby(['uninstall'], app, home);
    expect(uninstall.stdout).toContain("status line: gobby's removed");
    expect(existsSync(local)).toBe(false);
    expect(readFileSync(userFile, 'utf8')).toBe(userSettings);
  });

  it('--shared: a wrapped `gobby` that prints nothing without gobby, the team\'s line chained, the file given back byte for byte', async () => {
    const { home, app } = machine();
    mkdirSync(join(app, '.claude'));
    const shared = join(app, '.claude', 'settings.json');
    const team = '{\r\n    "statusLine": {\r\n        "type": "command",\r\n        "command": "printf team"\r\n    }\r\n}\r\n';
    writeFileSync(shared, team);
    const run = await gobby(['install', '--shared'], app, home);
    expect(run.stdout).toContain('status line chained with yours');
    const command = (JSON.parse(readFileSync(shared, 'utf8')) as { statusLine: { command: string } }).statusLine.command;
    expect(command).toBe("if command -v gobby >/dev/null 2>&1; then gobby statusline --then 'printf team'; else eval 'printf team'; fi");
    const installed = readFileSync(shared, 'utf8');
    expect((await gobby(['install', '--shared'], app, home)).stdout).toContain('gobby hooks already installed');
    expect(readFileSync(shared, 'utf8')).toBe(installed);
    expect((await gobby(['uninstall', '--shared'], app, home)).stdout).toContain('status line: yours is back as it was');
    expect(readFileSync(shared, 'utf8')).toBe(team);
  });

  it('--no-statusline leaves it out; a statusLine that is not a command gets a warning, and the hooks go in', async () => {
    const { home, app } = machine();
    const skipped = await gobby(['install', '--no-statusline'], app, home);
    expect(skipped.stdout).toContain('status line not set (--no-statusline)');
    expect(JSON.parse(readFileSync(join(app, '.claude', 'settings.local.json'), 'utf8'))).not.toHaveProperty('statusLine');
    writeFileSync(join(app, '.claude', 'settings.json'), '{"statusLine": "echo hi"}\n');
    const warned = await gobby(['install', '--shared'], app, home);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stdout).toMatch(/warning: the statusLine in .*settings\.json is not \{"type": "command"/);
    const after = JSON.parse(readFileSync(join(app, '.claude', 'settings.json'), 'utf8')) as { statusLine: unknown; hooks: object };
    expect(after.statusLine).toBe('echo hi');
    expect(Object.keys(after.hooks)).toContain('PreToolUse');
  });
});
