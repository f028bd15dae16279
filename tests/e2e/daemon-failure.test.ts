/**
 * What happens when the daemon is not there, with the real Claude Code CLI:
 * - kill -9 mid-session loses nothing, and the SessionStart client starts the daemon again;
 * - strict mode (the default install) blocks tools when the daemon cannot answer;
 * - lenient mode lets them through.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildGobbyHooks } from '../../hooks/install.js';
import { makeClaudeSandbox, writeProjectSettings, type ClaudeSandbox } from '../support/claude-cli.js';
import { newestTurnText, toolResultsIn, type ScriptedTurn } from '../support/fake-anthropic.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';
import { freePort } from '../support/gobby-process.js';

const TIMEOUT = 90_000;

async function runScripted(box: ClaudeSandbox, prompt: string, script: ScriptedTurn[], session: { id: string; resume: boolean }) {
  return (await runScriptedSession(box, prompt, script, session)).requests;
}

function sandbox(): ClaudeSandbox {
  const box = makeClaudeSandbox();
  mkdirSync(join(box.project, '.git'));
  onTestFinished(() => box.cleanup());
  return box;
}

describe('when the daemon is gone', () => {
  it('keeps the session state across kill -9, and the SessionStart client restarts the daemon', async () => {
    const { gobby, box } = await setUpGobbyProject();
    const session = { id: randomUUID(), resume: false };
    const target = join(box.project, 'notes.txt');

    await runScripted(box, 'write notes', [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'x' })] }, { text: 'Plan: write notes.txt. Plan complete. Ready to implement?' }], session);
    expect(existsSync(target)).toBe(false);

    const { pid } = JSON.parse(readFileSync(join(gobby.home, 'daemon.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await gobby.cli(['workflow', 'status'], box.project)).stderr).toContain('gobby daemon start');

    const requests = await runScripted(
      box,
      'yes',
      [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'x' })] }, { text: 'done' }],
      { ...session, resume: true },
    );
    expect(newestTurnText(requests[0]!)).toContain('EXECUTION phase');
    expect(toolResultsIn(requests[1]!)[0]?.is_error).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('x');

    const daemon = await gobby.json<{ pid: number }>(['daemon', 'status'], box.project);
    expect(daemon.pid).not.toBe(pid);
    const status = await gobby.json<{ phase: string; action_counts: { blocked: number } }>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('execute');
    expect(status.action_counts.blocked).toBe(1);
  }, TIMEOUT);

  /** gobby's http hooks pointed at a port where nothing listens (no SessionStart client to heal it). */
  async function deadDaemonSettings(box: ClaudeSandbox, lenient: boolean, drop: string[] = []): Promise<void> {
    const hooks: Record<string, unknown> = buildGobbyHooks({ port: await freePort(), sessionStartCommand: 'true', lenient });
    for (const event of ['SessionStart', ...drop]) delete hooks[event];
    writeProjectSettings(box.project, { hooks } as Parameters<typeof writeProjectSettings>[1]);
  }

  it('strict mode: the prompt itself is refused, so the model is never asked', async () => {
    const box = sandbox();
    await deadDaemonSettings(box, false);
    const target = join(box.project, 'out.txt');
    const requests = await runScripted(box, 'write it', [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'y' })] }], {
      id: randomUUID(),
      resume: false,
    });
    expect(requests).toHaveLength(0);
    expect(existsSync(target)).toBe(false);
  }, TIMEOUT);

  it('strict mode: a tool call is blocked when the daemon cannot answer PreToolUse', async () => {
    const box = sandbox();
    await deadDaemonSettings(box, false, ['UserPromptSubmit']);
    const target = join(box.project, 'out.txt');
    const requests = await runScripted(
      box,
      'write it',
      [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'y' })] }, { text: 'done' }],
      { id: randomUUID(), resume: false },
    );
    const [result] = toolResultsIn(requests[1]!);
    expect(result?.is_error).toBe(true);
    expect(result?.text).toContain('blocking because onFailure is "block"');
    expect(existsSync(target)).toBe(false);
  }, TIMEOUT);

  it('lenient mode: tools go ahead when the daemon cannot answer', async () => {
    const box = sandbox();
    await deadDaemonSettings(box, true);
    const target = join(box.project, 'out.txt');
    const requests = await runScripted(
      box,
      'write it',
      [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'y' })] }, { text: 'done' }],
      { id: randomUUID(), resume: false },
    );
    expect(toolResultsIn(requests[1]!)[0]?.is_error).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('y');
  }, TIMEOUT);
});
