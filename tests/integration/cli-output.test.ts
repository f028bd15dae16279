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
