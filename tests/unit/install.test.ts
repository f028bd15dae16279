import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { GobbyError } from '../../hooks/errors.js';
import { buildGobbyHooks, installIntoFile as installInto, uninstallFromFile as uninstallFrom, type StatusLineRequest } from '../../hooks/install.js';
import { validateSettings } from '../../hooks/settings-schema.js';
import { quoteForShell } from '../../hooks/shell-quote.js';

const CLIENT = 'gobby hook SessionStart --port 7377';
const NOW = new Date('2025-11-21T23:06:00.000Z');
const strictHooks = buildGobbyHooks({ port: 7377, sessionStartCommand: CLIENT });

const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempProject(): Promise<{ dir: string; settingsPath: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gobby-install-'));
  tempDirs.push(dir);
  return { dir, settingsPath: join(dir, '.claude', 'settings.json') };
}

/** Backups go to `<dir>/gobby-home/backups`, never beside the settings file. */
function backupDirOf(settingsPath: string): string {
  return join(settingsPath, '..', '..', 'gobby-home', 'backups');
}

function installIntoFile(options: { path: string; gobbyHooks: ReturnType<typeof buildGobbyHooks>; now?: Date; statusLine?: StatusLineRequest }) {
  return installInto({ ...options, backupDir: backupDirOf(options.path) });
}

function uninstallFromFile(options: { path: string; now?: Date; statusLineCommand?: string; lowerPrecedence?: string[] }) {
  return uninstallFrom({ ...options, backupDir: backupDirOf(options.path) });
}

async function writeSettings(path: string, value: unknown): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(path, text);
  return text;
}

/** Backups in the project's `.claude/` (there must be none) plus those under GOBBY_HOME. */
async function backupsIn(claudeDir: string): Promise<string[]> {
  const beside = (await readdir(claudeDir)).filter((name) => name !== 'settings.json');
  const home = await readdir(join(claudeDir, '..', 'gobby-home', 'backups')).catch(() => []);
  return [...beside, ...home];
}

const userSettings = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'], defaultMode: 'acceptEdits' },
  env: { FOO: 'bar' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh', timeout: 30 }] }],
    Notification: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9000/notify' }] }],
  },
  statusLine: { type: 'command', command: 'echo hi' },
};

describe('buildGobbyHooks', () => {
  it('sends tool, prompt and lifecycle events to the daemon over http and SessionStart through the client', () => {
    expect(Object.keys(strictHooks).sort()).toEqual(
      ['ConfigChange', 'PostToolUse', 'PostToolUseFailure', 'PreCompact', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'SubagentStart', 'SubagentStop', 'UserPromptSubmit'].sort(),
    );
    // A settings change that would drop gobby's hooks is blocked; with the daemon down too, in strict mode.
    expect(strictHooks['ConfigChange']?.[0]?.hooks[0]).toMatchObject({ url: 'http://127.0.0.1:7377/hooks/ConfigChange', onFailure: 'block' });
    expect(strictHooks['PreToolUse']).toEqual([
      {
        matcher: '*',
        hooks: [{ type: 'http', url: 'http://127.0.0.1:7377/hooks/PreToolUse', timeout: 5, headers: { 'X-Gobby-Hook': '1' }, onFailure: 'block' }],
      },
    ]);
    expect(strictHooks['UserPromptSubmit']?.[0]?.hooks[0]).toMatchObject({ onFailure: 'block', timeout: 5 });
    expect(strictHooks['PostToolUse']?.[0]?.hooks[0]).not.toHaveProperty('onFailure');
    expect(strictHooks['SessionStart']).toEqual([
      { hooks: [{ type: 'command', command: `${CLIENT} # gobby-hook`, timeout: 15 }] },
    ]);
    expect(validateSettings({ hooks: strictHooks })).toEqual({ ok: true });
  });

  it('in lenient mode never fails closed', () => {
    const lenient = buildGobbyHooks({ port: 7377, sessionStartCommand: CLIENT, lenient: true });
    expect(JSON.stringify(lenient)).not.toContain('onFailure');
  });
});

describe('quoteForShell', () => {
  // bash -c is how Claude Code runs a command hook; each word must reach the program unchanged.
  it.each([
    ['a plain path', '/opt/gobby/dist/hooks/client.js'],
    ['a space', '/home/me/my gobby'],
    ['a dollar sign', '/tmp/$HOME/$(id)'],
    ['a backtick', '/tmp/`touch pwned`'],
    ['single and double quotes', `/tmp/it's "quoted"`],
    ['a backslash and a newline', '/tmp/a\\b\nc'],
    ['an empty word', ''],
  ])('passes %s through bash unchanged', (_what, word) => {
    const quoted = quoteForShell(word) || "''";
    const echoed = execFileSync('bash', ['-c', `printf '%s' ${quoted}`], { encoding: 'utf8' });
    expect(echoed).toBe(word);
  });
});

describe('installIntoFile', () => {
  it('creates .claude/settings.json in an empty project', async () => {
    const { dir, settingsPath } = await tempProject();
    const summary = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    expect(summary).toEqual({ path: settingsPath, changed: true, events: Object.keys(strictHooks), statusLine: { result: 'skipped', reason: 'not-asked' } });
    const text = await readFile(settingsPath, 'utf8');
    expect(text).toBe(`${JSON.stringify({ hooks: strictHooks }, null, 2)}\n`);
    expect(await backupsIn(join(dir, '.claude'))).toEqual([]);
  });

  it('keeps the user settings and hooks, and backs up the previous file', async () => {
    const { dir, settingsPath } = await tempProject();
    const before = await writeSettings(settingsPath, userSettings);
    const summary = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    expect(summary.changed).toBe(true);
    // Named after the file and the time, under GOBBY_HOME: nothing new shows in `git status`.
    expect(summary.backupPath).toBe(join(backupDirOf(settingsPath), `${settingsPath.slice(1).replaceAll('/', '%')}.20251121T230600Z`));
    expect(await readFile(summary.backupPath!, 'utf8')).toBe(before);

    const after = JSON.parse(await readFile(settingsPath, 'utf8'));
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual(userSettings.permissions);
    expect(after.env).toEqual(userSettings.env);
    expect(after.statusLine).toEqual(userSettings.statusLine);
    expect(after.hooks.Notification).toEqual(userSettings.hooks.Notification);
    expect(after.hooks.PreToolUse[0]).toEqual(userSettings.hooks.PreToolUse[0]);
    expect(after.hooks.PreToolUse[1]).toEqual(strictHooks['PreToolUse']?.[0]);
    expect(await backupsIn(join(dir, '.claude'))).toHaveLength(1);
  });

  it('is idempotent: a second install leaves the file identical and makes no backup', async () => {
    const { dir, settingsPath } = await tempProject();
    await writeSettings(settingsPath, userSettings);
    await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    const once = await readFile(settingsPath, 'utf8');
    const again = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: new Date('2025-11-22T00:00:00Z') });
    expect(again.changed).toBe(false);
    expect(again.backupPath).toBeUndefined();
    expect(await readFile(settingsPath, 'utf8')).toBe(once);
    expect(await backupsIn(join(dir, '.claude'))).toHaveLength(1);
  });

  it('refuses a file that is not valid JSON and leaves it untouched', async () => {
    const { dir, settingsPath } = await tempProject();
    await mkdir(join(dir, '.claude'));
    const broken = '{\n  "model": "opus",\n  "hooks": {\n}\n';
    await writeFile(settingsPath, broken);
    const error = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GobbyError);
    expect((error as GobbyError).code).toBe('GOBBY_ERR_INSTALL_INVALID_JSON');
    expect((error as GobbyError).message).toContain(settingsPath);
    expect((error as GobbyError).message).toMatch(/line 5, column 1/);
    expect(await readFile(settingsPath, 'utf8')).toBe(broken);
    expect(await backupsIn(join(dir, '.claude'))).toEqual([]);
  });

  it.each([
    ['a comment', '{\n  // mine\n  "model": "opus"\n}\n', 'a comment'],
    ['a trailing comma', '{\n  "model": "opus",\n}\n', 'trailing comma'],
  ])('refuses a file with %s, which Claude Code ignores entirely', async (_what, text, why) => {
    const { dir, settingsPath } = await tempProject();
    await mkdir(join(dir, '.claude'));
    await writeFile(settingsPath, text);
    const error = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW }).catch((e: unknown) => e);
    expect((error as GobbyError).code).toBe('GOBBY_ERR_INSTALL_INVALID_JSON');
    expect((error as GobbyError).message).toContain(why);
    expect(await readFile(settingsPath, 'utf8')).toBe(text);
  });

  it('refuses a file Claude Code would ignore ("permissions": "oops") and lists why', async () => {
    const { dir, settingsPath } = await tempProject();
    const before = await writeSettings(settingsPath, { permissions: 'oops' });
    const error = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW }).catch((e: unknown) => e);
    expect((error as GobbyError).code).toBe('GOBBY_ERR_INSTALL_INVALID_SETTINGS');
    expect((error as GobbyError).message).toMatch(/- permissions: .*expected object, received string/);
    expect(await readFile(settingsPath, 'utf8')).toBe(before);
    expect(await backupsIn(join(dir, '.claude'))).toEqual([]);
  });

  it('writes through a symlinked settings file instead of replacing the link', async () => {
    const { dir, settingsPath } = await tempProject();
    const realFile = join(dir, 'dotfiles-settings.json');
    await writeSettings(realFile, { model: 'opus' });
    await mkdir(join(dir, '.claude'));
    await symlink(realFile, settingsPath);
    await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    expect((await lstat(settingsPath)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(realFile, 'utf8')).hooks.PreToolUse).toHaveLength(1);
  });
});

describe('uninstallFromFile', () => {
  it('removes exactly the gobby hooks', async () => {
    const { settingsPath } = await tempProject();
    await writeSettings(settingsPath, userSettings);
    await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    const summary = await uninstallFromFile({ path: settingsPath, now: new Date('2025-11-22T00:00:00Z') });
    expect(summary.changed).toBe(true);
    expect(summary.events.sort()).toEqual(Object.keys(strictHooks).sort());
    expect(JSON.parse(await readFile(settingsPath, 'utf8'))).toEqual(userSettings);
  });

  it('removes a file gobby created, so that nothing is left behind', async () => {
    const { settingsPath } = await tempProject();
    await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    const summary = await uninstallFromFile({ path: settingsPath });
    expect(summary).toMatchObject({ changed: true, removed: true });
    expect(existsSync(settingsPath)).toBe(false);
  });

  it('gives back a file of the user that held only `{}`, rather than removing it', async () => {
    const { settingsPath } = await tempProject();
    await mkdir(join(settingsPath, '..'), { recursive: true });
    await writeFile(settingsPath, '{}\n');
    await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    const summary = await uninstallFromFile({ path: settingsPath, now: new Date('2025-11-22T00:00:00Z') });
    expect(summary.removed).toBeUndefined();
    expect(await readFile(settingsPath, 'utf8')).toBe('{}\n');
  });

  it('gives back the same bytes: 4-space, CRLF, other hooks, a byte-order mark', async () => {
    const { settingsPath } = await tempProject();
    await mkdir(join(settingsPath, '..'), { recursive: true });
    const before = `\uFEFF${JSON.stringify(userSettings, null, 4).replaceAll('\n', '\r\n')}\r\n`;
    await writeFile(settingsPath, before);
    await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW });
    expect(await readFile(settingsPath, 'utf8')).not.toBe(before);
    await uninstallFromFile({ path: settingsPath, now: new Date('2025-11-22T00:00:00Z') });
    expect(await readFile(settingsPath, 'utf8')).toBe(before);
  });

  it('changes nothing when no gobby hooks are installed, or the file is missing', async () => {
    const { dir, settingsPath } = await tempProject();
    expect(await uninstallFromFile({ path: settingsPath })).toEqual({ path: settingsPath, changed: false, events: [], statusLine: 'none' });
    const before = await writeSettings(settingsPath, userSettings);
    expect((await uninstallFromFile({ path: settingsPath })).changed).toBe(false);
    expect(await readFile(settingsPath, 'utf8')).toBe(before);
    expect(await backupsIn(join(dir, '.claude'))).toEqual([]);
  });
});

describe('the status line in the settings file', () => {
  const STATUS = 'gobby statusline';

  it("chains the user's status line, says so, and uninstall gives the file back byte for byte", async () => {
    const { settingsPath } = await tempProject();
    const before = await writeSettings(settingsPath, userSettings);
    const installed = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW, statusLine: { command: STATUS } });
    expect(installed.statusLine).toEqual({ result: 'chained', command: `${STATUS} --then 'echo hi'` });
    expect(JSON.parse(await readFile(settingsPath, 'utf8')).statusLine).toEqual({ type: 'command', command: `${STATUS} --then 'echo hi'` });
    const again = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, now: NOW, statusLine: { command: STATUS } });
    expect(again).toMatchObject({ changed: false, statusLine: { result: 'already' } });
    const removed = await uninstallFromFile({ path: settingsPath, now: new Date('2025-11-22T00:00:00Z'), statusLineCommand: STATUS });
    expect(removed.statusLine).toBe('restored');
    expect(await readFile(settingsPath, 'utf8')).toBe(before);
  });

  it('a personal file chains the status line of the user file below it, and uninstall leaves none behind', async () => {
    const { dir } = await tempProject();
    const userFile = join(dir, 'home', '.claude', 'settings.json');
    await writeSettings(userFile, { statusLine: { type: 'command', command: '~/.claude/line.sh', padding: 0 } });
    const local = join(dir, '.claude', 'settings.local.json');
    const lowerPrecedence = [join(dir, '.claude', 'settings.json'), userFile];
    const installed = await installIntoFile({ path: local, gobbyHooks: strictHooks, statusLine: { command: STATUS, lowerPrecedence } });
    expect(installed.statusLine).toEqual({ result: 'chained', command: `${STATUS} --then '~/.claude/line.sh'`, from: userFile });
    expect(JSON.parse(await readFile(local, 'utf8')).statusLine).toEqual({ type: 'command', command: `${STATUS} --then '~/.claude/line.sh'`, padding: 0 });
    const removed = await uninstallFromFile({ path: local, statusLineCommand: STATUS, lowerPrecedence });
    expect(removed).toMatchObject({ removed: true, statusLine: 'removed' });
    expect(existsSync(local)).toBe(false);
  });

  it('a statusLine that is not a command is left alone and the hooks still go in', async () => {
    const { settingsPath } = await tempProject();
    await writeSettings(settingsPath, { statusLine: 'echo hi' });
    const installed = await installIntoFile({ path: settingsPath, gobbyHooks: strictHooks, statusLine: { command: STATUS } });
    expect(installed).toMatchObject({ changed: true, statusLine: { result: 'skipped', reason: 'not-a-command' } });
    const after = JSON.parse(await readFile(settingsPath, 'utf8'));
    expect(after.statusLine).toBe('echo hi');
    expect(after.hooks.PreToolUse).toHaveLength(1);
  });
});

describe('validateSettings', () => {
  it('names the exact path of each problem', () => {
    const result = validateSettings({
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'ok' }, { type: 'http', url: 'not a url' }] }] },
      env: { N: 1 },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toContain('hooks.PreToolUse[0].hooks[1].url: Invalid URL');
    expect(result.problems.some((p) => p.startsWith('env.N: '))).toBe(true);
  });

  it('accepts unknown top-level keys', () => {
    expect(validateSettings({ somethingNew: [1, 2], hooks: {} })).toEqual({ ok: true });
  });
});
