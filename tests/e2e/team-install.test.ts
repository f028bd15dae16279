/**
 * A team install (`gobby install --shared`, .claude/settings.json committed) seen by a
 * teammate who has no gobby: one clear message in the session, no stack trace, and either
 * everything works (the default) or prompts are refused (--fail-closed), as the team chose.
 * And install → uninstall gives the committed file back byte for byte.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hookEvents, makeClaudeSandbox, type ClaudeSandbox } from '../support/claude-cli.js';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { createGobby, type GobbyInstance } from '../support/gobby-process.js';
import { runScriptedSession, uniqueToolUse } from '../support/scripted-session.js';

const TIMEOUT = 90_000;

/** A project with a team settings file written by `gobby install --shared`, and no daemon running anywhere. */
async function sharedProject(flags: string[] = []): Promise<{ gobby: GobbyInstance; box: ClaudeSandbox }> {
  const gobby = await createGobby();
  onTestFinished(() => gobby.cleanup());
  const box = makeClaudeSandbox();
  onTestFinished(() => box.cleanup());
  mkdirSync(join(box.project, '.git'));
  const install = await gobby.cli(['install', '--shared', ...flags], box.project);
  expect(install.code, install.stderr).toBe(0);
  return { gobby, box };
}

/**
 * What the teammate's PATH has: the developer's own, less any folder that holds a `gobby` (the
 * launcher `npm run setup` puts in ~/.local/bin, on the machine that runs these tests), so the
 * session really finds no gobby.
 */
function teammatePath(): string {
  const path = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':').filter((dir) => dir !== '' && !existsSync(join(dir, 'gobby')));
  expect(path.some((dir) => existsSync(join(dir, 'node'))), 'the teammate still has node').toBe(true);
  return path.join(':');
}

describe('a teammate without gobby, on a project installed with --shared', () => {
  it('sees one message that the project uses gobby and how to install it; tools run', async () => {
    const { box } = await sharedProject();
    const settings = readFileSync(join(box.project, '.claude', 'settings.json'), 'utf8');
    // Portable: nothing of the installer's machine.
    expect(settings).not.toContain(process.execPath);
    expect(settings).not.toContain('GOBBY_HOME');
    expect(settings).not.toContain('onFailure');

    const target = join(box.project, 'notes.txt');
    const { run, requests } = await runScriptedSession(
      box,
      'write notes',
      [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi' })] }, { text: 'done' }],
      { id: randomUUID(), resume: false, env: { PATH: teammatePath() } },
    );
    const sessionStart = hookEvents(run.events, 'SessionStart').filter((e) => e.subtype === 'hook_response');
    expect(sessionStart).toHaveLength(1);
    expect(sessionStart[0]?.exit_code).toBe(0);
    expect(sessionStart[0]?.stderr ?? '').toBe('');
    const message = (JSON.parse(sessionStart[0]?.stdout ?? '{}') as { systemMessage?: string }).systemMessage ?? '';
    expect(message).toContain('This project uses gobby');
    expect(message).toContain('NOT enforced');
    expect(message).toContain('npm ci && npm run setup');
    expect(run.stdout + run.stderr).not.toMatch(/Cannot find module|node:internal|at .*\.js:\d+/);
    // Fail open: the http hooks fail to connect, which Claude Code treats as non-blocking.
    expect(toolResultsIn(requests[1]!)[0]?.is_error).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('hi');
  }, TIMEOUT);

  it('with --fail-closed, is told prompts are refused until gobby runs, and the prompt is refused', async () => {
    const { box } = await sharedProject(['--fail-closed']);
    const target = join(box.project, 'notes.txt');
    const { run, requests } = await runScriptedSession(
      box,
      'write notes',
      [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi' })] }],
      { id: randomUUID(), resume: false, env: { PATH: teammatePath() } },
    );
    const response = hookEvents(run.events, 'SessionStart').find((e) => e.subtype === 'hook_response');
    const message = (JSON.parse(response?.stdout ?? '{}') as { systemMessage?: string }).systemMessage ?? '';
    expect(message).toContain('prompts and tools are refused until gobby runs here');
    expect(requests).toHaveLength(0);
    expect(existsSync(target)).toBe(false);
  }, TIMEOUT);
});

describe('install then uninstall', () => {
  it('gives a hand-written team settings file back byte for byte, with no backup left in the project', async () => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());
    const box = makeClaudeSandbox();
    onTestFinished(() => box.cleanup());
    mkdirSync(join(box.project, '.claude'), { recursive: true });
    const path = join(box.project, '.claude', 'settings.json');
    const original = '{\r\n    "permissions": { "allow": ["Bash(npm test)"] },\r\n    "hooks": {\r\n        "Stop": [\r\n            { "hooks": [ { "type": "command", "command": "say done" } ] }\r\n        ]\r\n    }\r\n}\r\n';
    writeFileSync(path, original);

    const install = await gobby.json<{ changed: boolean; backupPath: string }>(['install', '--shared'], box.project);
    expect(install.changed).toBe(true);
    expect(install.backupPath.startsWith(join(gobby.home, 'backups'))).toBe(true);
    expect(readFileSync(install.backupPath, 'utf8')).toBe(original);
    expect((await gobby.json<{ changed: boolean }>(['install', '--shared'], box.project)).changed).toBe(false);

    const uninstall = await gobby.json<{ changed: boolean }>(['uninstall', '--shared'], box.project);
    expect(uninstall.changed).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(readdirSync(join(box.project, '.claude'))).toEqual(['settings.json']);
  }, TIMEOUT);
});
