/**
 * What the user sees of the workflow in Claude Code's terminal: the status line (`gobby
 * statusline`, run here the way Claude Code runs it: the built executable, the session's JSON
 * on stdin) phase by phase and with an approval pending, and the notices Claude Code shows from
 * the hook answers' systemMessage (stream-json reports them as `system/informational`,
 * "<Event> says: …"). `claude -p` itself never runs a status line, so the test runs it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, type ClaudeRunResult } from '../support/claude-cli.js';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { planExecuteSession, TIMEOUT } from '../support/plan-execute-session.js';
import type { GobbyInstance } from '../support/gobby-process.js';
import { uniqueToolUse } from '../support/scripted-session.js';

/** The `gobby` executable as package.json's bin names it. */
const GOBBY_BIN = join(REPO_ROOT, 'dist', 'daemon', 'cli', 'main.js');

/** What Claude Code 2.1.330 writes to a status line command's stdin (the fields it always sends). */
function claudeCodeStdin(sessionId: string, project: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: join(project, '.claude-home', `${sessionId}.jsonl`),
    cwd: project,
    model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet 4.5' },
    workspace: { current_dir: project, project_dir: project, added_dirs: [] },
    version: '2.1.330',
    output_style: { name: 'default' },
    cost: { total_cost_usd: 0, total_duration_ms: 1200, total_api_duration_ms: 800, total_lines_added: 0, total_lines_removed: 0 },
    exceeds_200k_tokens: false,
  });
}

/** Runs `gobby statusline` as Claude Code does: from the project, with the session on stdin. */
function statusLine(gobby: GobbyInstance, project: string, sessionId: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  return runWithSession(gobby, project, sessionId, [process.execPath, GOBBY_BIN, 'statusline', ...args]);
}

/** Runs the statusLine command `gobby install` wrote into the personal settings, as Claude Code does: `bash -c`. */
function installedStatusLine(gobby: GobbyInstance, project: string, sessionId: string): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')) as { statusLine: { command: string } };
  return runWithSession(gobby, project, sessionId, ['/bin/bash', '-c', settings.statusLine.command]);
}

function runWithSession(gobby: GobbyInstance, project: string, sessionId: string, [file, ...args]: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(file!, args, { cwd: project, env: gobby.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: Date.now() - started }));
    child.stdin.end(claudeCodeStdin(sessionId, project));
  });
}

/** The notices Claude Code showed the user in this run. */
function noticesShown(run: ClaudeRunResult): string[] {
  return run.events
    .filter((event) => event.type === 'system' && event.subtype === 'informational')
    .map((event) => String(event.content));
}

describe('the workflow where the user works', () => {
  it('the status line per phase, with an approval pending, and the notices on the way', async () => {
    const { gobby, box, target, turn, status } = await planExecuteSession();

    // Before the session has reported, the line says so rather than show an enforcement it cannot vouch for.
    const before = await statusLine(gobby, box.project, randomUUID());
    expect(before).toMatchObject({ code: 0, stdout: 'gobby: plan-execute · this session has not reported to gobby yet\n', stderr: '' });

    // Plan: the Write is refused with the workflow's rule, and the model asks for approval.
    const planned = await turn('Create hello.txt saying hi', [
      { toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi\n' })] },
      { text: 'Plan: 1. create hello.txt. Plan complete. Ready to implement?' },
    ]);
    const [refused] = toolResultsIn(planned.requests[1]!);
    expect(refused?.text).toContain('PreToolUse:Write hook error: Workflow rule (plan-execute, phase plan): Write is not allowed in this phase.');
    expect(noticesShown(planned.run)).toEqual([
      'Stop says: gobby: plan-execute waits for your approval to leave `plan` for `execute`. ' +
        'Start your reply with "yes" (or y, approve, approved, proceed, continue, lgtm) to approve, ' +
        'or "no" (or n, reject, rejected, stop, cancel) to stay in `plan`.',
    ]);
    const session = (await status()).session_id;
    const waiting = await statusLine(gobby, box.project, session);
    expect(waiting).toMatchObject({
      code: 0,
      stdout: 'gobby: plan-execute › plan (1/2) · approval pending: reply yes to move to execute, no to stay · 1 refused this turn\n',
      stderr: '',
    });

    // The user approves: Claude Code shows the move, and the line follows it.
    const approved = await turn('yes', [{ text: 'Starting.' }]);
    expect(noticesShown(approved.run)).toEqual(['UserPromptSubmit says: gobby: plan-execute moved from phase `plan` to `execute`: you approved.']);
    expect((await statusLine(gobby, box.project, session)).stdout).toBe('gobby: plan-execute › execute (2/2)\n');
    // What `gobby install` put in the settings runs the same line.
    expect(await installedStatusLine(gobby, box.project, session)).toMatchObject({ code: 0, stdout: 'gobby: plan-execute › execute (2/2)\n', stderr: '' });

    // Enforcement switched off for a while: the line and the next prompt say so.
    await gobby.json(['workflow', 'disable', '--for', '30m', '--reason', 'demo'], box.project);
    expect((await statusLine(gobby, box.project, session)).stdout).toMatch(/^gobby: plan-execute › execute \(2\/2\) · enforcement paused, 30 min left \(demo\)\n$/);
    const paused = await turn('carry on', [{ text: 'Carrying on.' }]);
    expect(noticesShown(paused.run)).toEqual([expect.stringMatching(/^UserPromptSubmit says: gobby: enforcement is paused for this session for another 30 min \("demo"\)/)]);

    // Chained with the user's own status line: theirs first, gobby's below, from one stdin.
    const chained = await statusLine(gobby, box.project, session, ['--then', `python3 -c 'import json,sys; print("[" + json.load(sys.stdin)["model"]["display_name"] + "]")'`]);
    expect(chained.stdout).toMatch(/^\[Sonnet 4\.5\]\ngobby: plan-execute › execute \(2\/2\) · enforcement paused/);

    // The daemon gone: one short line, exit 0, no stack trace.
    await gobby.stop();
    const down = await statusLine(gobby, box.project, session);
    expect(down).toMatchObject({ code: 0, stdout: 'gobby: daemon not running (gobby daemon start)\n', stderr: '' });
  }, TIMEOUT * 2);
});
