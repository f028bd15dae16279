/**
 * Ways of installing and using gobby beyond the project default, with the real Claude Code
 * CLI: hooks in the user's settings cover every project, and the human-only overrides
 * refuse to run from inside a Claude Code session.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import Database from 'better-sqlite3';
import { hookEvents } from '../support/claude-cli.js';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { createGobby } from '../support/gobby-process.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';
import { quoteForShell } from '../../hooks/shell-quote.js';

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
    expect(result?.text).toContain('Workflow rule (plan-execute, phase plan): Write is not allowed in this phase.');
    expect(existsSync(target)).toBe(false);

    const uninstall = await gobby.json<{ changed: boolean }>(['uninstall', '--user'], box.project, claudeConfig);
    expect(uninstall.changed).toBe(true);
    // The file held nothing but gobby's hooks, so it is gone, as before the install.
    expect(existsSync(join(box.home, '.claude', 'settings.json'))).toBe(false);
  }, TIMEOUT);
});

describe('gobby install (personal): the SessionStart fast path', () => {
  it('reaches the running daemon from bash alone (/dev/tcp, no curl), and the daemon registers the Claude Code process from it', async () => {
    const { gobby, box } = await setUpGobbyProject();
    const settingsText = readFileSync(join(box.project, '.claude', 'settings.local.json'), 'utf8');
    expect(settingsText).toContain('/dev/tcp/127.0.0.1/');
    // A `curl` first on PATH that leaves a mark: the hook must not need it.
    const shims = mkdtempSync(join(tmpdir(), 'gobby-curl-shim-'));
    onTestFinished(() => rmSync(shims, { recursive: true, force: true }));
    const mark = join(shims, 'curl-ran');
    writeFileSync(join(shims, 'curl'), `#!/bin/sh\ntouch ${quoteForShell(mark)}\nexit 7\n`, { mode: 0o755 });
    const id = randomUUID();
    const { run } = await runScriptedSession(box, 'hello', [{ text: 'Plan: nothing. Plan complete. Ready to implement?' }], {
      id,
      resume: false,
      env: { PATH: `${shims}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
    expect(existsSync(mark)).toBe(false);
    const response = hookEvents(run.events, 'SessionStart').find((e) => e.subtype === 'hook_response');
    expect(response?.exit_code).toBe(0);
    expect(JSON.parse(response?.stdout ?? '{}').hookSpecificOutput?.additionalContext).toContain('PLANNING phase');
    // Registered at SessionStart from the hook shell's own connection: bash < claude.
    const db = new Database(join(gobby.home, 'gobby.db'), { readonly: true, fileMustExist: true });
    onTestFinished(() => void db.close());
    const row = db.prepare('SELECT comm, registered_by AS registeredBy FROM session_processes WHERE session_id = ?').get(id) as
      | { comm: string; registeredBy: string }
      | undefined;
    expect(row).toEqual({ comm: 'claude', registeredBy: 'session-start' });
  }, TIMEOUT);
});

describe('gobby install with an unusual GOBBY_HOME', () => {
  it('writes a hook command that reaches the daemon of that home through bash, expanding nothing in the path', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'gobby-quoting-'));
    // Each of these would be expanded, split or end the quote if the path were quoted badly.
    const home = join(parent, "it's $HOME `touch pwned` $(id) dir");
    // The port lives in the home's config.json, so only a client that reads this very home
    // (its daemon.json) finds the daemon; the command carries no GOBBY_PORT.
    const gobby = await createGobby({ home, portIn: 'config' });
    // One callback, in this order: the daemon is found through its home, so the home goes last.
    onTestFinished(async () => {
      await gobby.cleanup();
      rmSync(parent, { recursive: true, force: true });
    });
    await gobby.start();
    const project = join(parent, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    for (const args of [['install'], ['workflow', 'set', 'plan-execute']]) {
      const run = await gobby.cli(args, project);
      expect(run.code, run.stderr).toBe(0);
    }

    // A client that read another home would fall back to GOBBY_PORT: a decoy answers there.
    const decoy = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"decoy":true}'));
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void decoy.close());
    const decoyPort = (decoy.address() as AddressInfo).port;

    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')) as {
      hooks: { SessionStart: { hooks: { command: string }[] }[] };
    };
    const command = settings.hooks.SessionStart[0]!.hooks[0]!.command;
    expect(command).not.toContain('GOBBY_PORT');
    // As Claude Code runs it: bash -c, in the project, with an environment that knows nothing of this home.
    const payload = { session_id: randomUUID(), transcript_path: join(parent, 't.jsonl'), cwd: project, hook_event_name: 'SessionStart', source: 'startup' };
    // Not spawnSync: the decoy answers from this process's event loop.
    const run = await runBash(command, project, JSON.stringify(payload), { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: parent, GOBBY_PORT: String(decoyPort) });
    expect(run.code, run.stderr).toBe(0);
    // Only the daemon of this home knows the project runs plan-execute.
    expect(JSON.parse(run.stdout).hookSpecificOutput?.additionalContext, `stdout: ${run.stdout}\nstderr: ${run.stderr}`).toContain('PLANNING phase');
    expect(existsSync(join(project, 'pwned'))).toBe(false);
    const status = await gobby.json<{ session_id: string }>(['workflow', 'status'], project);
    expect(status.session_id).toBe(payload.session_id);
  }, TIMEOUT);
});

function runBash(command: string, cwd: string, input: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

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
