// What the gobby CLI prints, run as a user runs it (the built dist/ CLI against a daemon on
// loopback over a real SQLite file): output piped into a reader that stops early, and values
// too deep to indent. `npm test` builds dist/ first.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltEntry, type EntryRun } from '../support/built-entry.js';
import { GOBBY_CLI } from '../support/gobby-process.js';
import { TestDaemon, TOKEN, writeProjectWorkflow, type Json } from './test-daemon.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
  if (!existsSync(GOBBY_CLI)) throw new Error(`${GOBBY_CLI} is missing: run \`npm run build\` first`);
});

interface Env {
  readonly home: string;
  readonly port: number;
}

async function runningDaemon(): Promise<{ t: TestDaemon; env: Env }> {
  const t = TestDaemon.create();
  cleanups.push(() => t.dispose());
  writeFileSync(t.layout.token, `${TOKEN}\n`, { mode: 0o600 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return { t, env: { home: t.home, port: address.port } };
}

function gobby(args: readonly string[], env: Env, cwd: string): Promise<EntryRun> {
  return runBuiltEntry(GOBBY_CLI, args, env, { cwd });
}

/**
 * `gobby <args> | head -c 0`: the reader has closed the pipe before gobby writes a byte (node
 * takes far longer to start than the close takes), so every write gobby makes fails with EPIPE.
 */
function gobbyIntoClosedPipe(args: readonly string[], env: Env, cwd: string): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GOBBY_CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: env.home, GOBBY_HOME: env.home, GOBBY_PORT: String(env.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** A session of a project whose workflow `deep` starts it with `variable` as a variable. */
async function sessionWithVariable(variable: unknown): Promise<{ t: TestDaemon; env: Env; session: string }> {
  const { t, env } = await runningDaemon();
  writeProjectWorkflow(t.project, 'deep.yaml', `name: deep\nvariables:\n  nested: ${JSON.stringify(variable)}\nphases:\n  - name: only\n`);
  const chosen = await t.setWorkflow('deep');
  expect(chosen.status, chosen.text).toBe(200);
  const session = t.newSessionId();
  await t.sessionStart(session);
  return { t, env, session };
}

describe('output piped into a reader that stops early (`| head`)', () => {
  it('ends quietly with the exit status of the command, no stack trace, for status and audit', async () => {
    const { t, env } = await sessionWithVariable(1);
    for (const args of [['workflow', 'status', '--json'], ['workflow', 'audit', '--json'], ['workflow', 'status']]) {
      const run = await gobbyIntoClosedPipe(args, env, t.project);
      expect(run.stderr, args.join(' ')).toBe('');
      expect(run, args.join(' ')).toMatchObject({ code: 0, signal: null });
    }
  });

  it('keeps the exit status of a failure whose message is piped away', async () => {
    const { t, env } = await runningDaemon();
    const run = await gobbyIntoClosedPipe(['workflow', 'status', '--json', '--session', 'no-such-session'], env, t.project);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
  });
});

describe('--json of deeply nested values', () => {
  it('prints a variable nested 300 levels deep in a few KB, parsing back to the same value', async () => {
    let nested: unknown = 'bottom';
    for (let level = 0; level < 300; level += 1) nested = [nested];
    const { t, env } = await sessionWithVariable(nested);
    const run = await gobby(['workflow', 'status', '--json'], env, t.project);
    expect(run.code, run.stderr).toBe(0);
    // Indented all the way down, the same answer is about 90 KB (two spaces more on each of 300 lines).
    expect(run.stdout.length).toBeLessThan(8000);
    expect((JSON.parse(run.stdout) as Json).variables.nested).toEqual(nested);
    // The levels a person reads are still indented.
    expect(run.stdout).toMatch(/^ {2}"session_id": /m);
  });
});

describe('agent-controlled text in human output (audit, status)', () => {
  const ESC = '\u001b';
  // Erases the line above and prints a green "all good" over it, on a terminal that obeys.
  const REWRITE = `shutdown ${ESC}[2K${ESC}[1A${ESC}[2K\r${ESC}[32mall good${ESC}[0m`;
  // eslint-disable-next-line no-control-regex -- looking for control characters is the test
  const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  async function daemonWithQuotingRule(): Promise<{ t: TestDaemon; env: Env; session: string }> {
    const { t, env } = await runningDaemon();
    writeProjectWorkflow(
      t.project,
      'acts.yaml',
      'name: acts\nphases:\n  - name: work\n    rules:\n      - when: "tool == \'Bash\'"\n        action: block\n        message: "no {{ tool_input.command }} in {{ phase }}"\n',
    );
    expect((await t.setWorkflow('acts')).status).toBe(200);
    const session = t.newSessionId();
    await t.sessionStart(session);
    return { t, env, session };
  }

  it('shows escape sequences, carriage returns and bidi overrides in a refusal as visible escapes, and --json keeps them', async () => {
    const { t, env, session } = await daemonWithQuotingRule();
    const refused = await t.preToolUse(session, 'Bash', { command: `${REWRITE} \u202etxt.exe` });
    expect(refused.status).toBe(200);
    const human = await gobby(['workflow', 'audit', '--session', session], env, t.project);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(RAW_CONTROL);
    expect(human.stdout).toContain('no shutdown \\x1b[2K\\x1b[1A\\x1b[2K\\r\\x1b[32mall good\\x1b[0m \\u202etxt.exe in work');
    const json = JSON.parse((await gobby(['workflow', 'audit', '--session', session, '--json'], env, t.project)).stdout) as Json;
    expect((json.rows as Json[]).some((row) => typeof row.reason === 'string' && row.reason.includes(REWRITE))).toBe(true);
  });

  it('keeps a session id with a newline and a bidi override on its one status line', async () => {
    const { t, env } = await daemonWithQuotingRule();
    const session = 'weird\nid\u202e;rm -rf';
    expect((await t.sessionStart(session)).status).toBe(200);
    const human = await gobby(['workflow', 'status'], env, t.project);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.split('\n')[0]).toBe('session   weird\\nid\\u202e;rm -rf');
    expect(human.stdout).not.toMatch(RAW_CONTROL);
    const audit = await gobby(['workflow', 'audit'], env, t.project);
    expect(audit.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse((await gobby(['workflow', 'status', '--json'], env, t.project)).stdout).session_id).toBe(session);
  });

  it('prints one line per audit row: a context row shows the first line of what the model was told', async () => {
    const { t, env } = await runningDaemon();
    const session = await t.planningSession();
    const json = JSON.parse((await gobby(['workflow', 'audit', '--session', session, '--json'], env, t.project)).stdout) as Json;
    const context = (json.rows as Json[]).find((row) => row.decision === 'context');
    expect(context.reason.split('\n').length).toBeGreaterThan(1);
    const human = await gobby(['workflow', 'audit', '--session', session], env, t.project);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + (json.rows as Json[]).length);
    expect(human.stdout).toContain(`reason: ${(context.reason as string).split('\n')[0]!.trimEnd()} …`);
  });
});
