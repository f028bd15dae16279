/**
 * Ways of installing and using gobby beyond the project default, with the real Claude Code
 * CLI: hooks in the user's settings cover every project, and the human-only overrides
 * refuse to run from inside a Claude Code session.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { createGobby } from '../support/gobby-process.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';

const TIMEOUT = 90_000;

describe('gobby install --user', () => {
  it('enforces the workflow in a project that has no settings file of its own', async () => {
    const { gobby, box } = await setUpGobbyProject({ install: 'none' });
    const claudeConfig = { CLAUDE_CONFIG_DIR: join(box.home, '.claude') };

    const install = await gobby.cli(['install', '--user'], box.project, claudeConfig);
    expect(install.code, install.stderr).toBe(0);
    expect(existsSync(join(box.home, '.claude', 'settings.json'))).toBe(true);
    expect(existsSync(join(box.project, '.claude', 'settings.json'))).toBe(false);
    expect((await gobby.cli(['workflow', 'set', 'plan-execute'], box.project)).code).toBe(0);

    const target = join(box.project, 'x.txt');
    const { requests } = await runScriptedSession(
      box,
      'write x',
      [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'x' })] }, { text: 'Plan: write notes.txt. Plan complete. Ready to implement?' }],
      { id: randomUUID(), resume: false },
    );
    const [result] = toolResultsIn(requests[1]!);
    expect(result?.is_error).toBe(true);
    expect(result?.text).toContain('Write is not allowed in the `plan` phase');
    expect(existsSync(target)).toBe(false);

    const uninstall = await gobby.json<{ changed: boolean }>(['uninstall', '--user'], box.project, claudeConfig);
    expect(uninstall.changed).toBe(true);
    expect(readFileSync(join(box.home, '.claude', 'settings.json'), 'utf8')).not.toContain('gobby');
  }, TIMEOUT);
});

describe('human-only overrides', () => {
  it.each([
    ['workflow', 'phase', 'execute', '--force', '--reason', 'x'],
    ['workflow', 'reset', '--reason', 'x'],
    ['workflow', 'disable', '--reason', 'x'],
    ['workflow', 'set', 'plan-execute'],
  ])('gobby %s %s … refuses to run inside Claude Code (CLAUDECODE=1)', async (...args) => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());
    const run = await gobby.cli(args, gobby.home, { CLAUDECODE: '1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is for humans and refuses to run inside a Claude Code session');
  });
});
