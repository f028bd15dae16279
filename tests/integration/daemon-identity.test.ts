// The right daemon: the CLI and the SessionStart client use what answers on the port only
// when it is gobby, and the daemon of their own GOBBY_HOME. A real daemon (fastify on
// loopback, a real SQLite file), the built CLI and hook client run as a user runs them, and
// another program on the port (a tiny node:http server answering HTML).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltEntry, type EntryRun } from '../support/built-entry.js';
import { GOBBY_CLI } from '../support/gobby-process.js';
import { hookPayload, TestDaemon, TOKEN } from './test-daemon.js';

const HOOK_CLIENT = fileURLToPath(new URL('../../dist/hooks/client.js', import.meta.url));

type Run = EntryRun;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
  for (const built of [GOBBY_CLI, HOOK_CLIENT]) if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
});

function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gobby-identity-home-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a built entry point with only the environment a user's shell would give it for this home and port. */
function run(entry: string, args: readonly string[], env: { home: string; port: number }, stdin = ''): Promise<Run> {
  return runBuiltEntry(entry, args, env, { stdin });
}

const gobby = (args: readonly string[], env: { home: string; port: number }) => run(GOBBY_CLI, args, env);

/** The SessionStart command client as Claude Code runs it; its stdout is the hook's JSON. */
async function sessionStartClient(env: { home: string; port: number }): Promise<{ run: Run; systemMessage: string }> {
  const payload = JSON.stringify(hookPayload('SessionStart', '00000000-0000-4000-8000-00000000aaaa', env.home, { source: 'startup' }));
  const result = await run(HOOK_CLIENT, ['SessionStart'], env, payload);
  return { run: result, systemMessage: (JSON.parse(result.stdout) as { systemMessage: string }).systemMessage };
}

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return address.port;
}

/** A daemon of its own GOBBY_HOME, listening on loopback, with the token the CLI reads. */
async function runningDaemon(): Promise<{ t: TestDaemon; port: number }> {
  const t = TestDaemon.create();
  cleanups.push(() => t.dispose());
  writeFileSync(t.layout.token, `${TOKEN}\n`, { mode: 0o600 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: portOf(t.app.server) };
}

/** Another program on the port: a web page, whatever is asked. */
async function htmlServer(): Promise<number> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html><body><h1>Router admin</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return portOf(server);
}

function expectOneErrorLine(result: Run, code: string): string {
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^gobby: .+ \\[${code}\\]$`));
  expect(lines[0]!.match(/gobby:/g)).toHaveLength(1);
  return lines[0]!;
}

describe('GET /api/identity', () => {
  it('says who answers, without a token and without secrets', async () => {
    const { t, port } = await runningDaemon();
    const response = await fetch(`http://127.0.0.1:${port}/api/identity`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gobby-version')).toMatch(/^\d+\.\d+\.\d+/);
    const identity = (await response.json()) as Record<string, unknown>;
    expect(identity).toEqual({ name: 'gobby', version: expect.any(String), home: t.home, pid: process.pid, port, startedAt: expect.any(String) });
    expect(JSON.stringify(identity)).not.toContain(TOKEN);
  });
});

describe('a request for another GOBBY_HOME', () => {
  it('is refused with 409 GOBBY_ERR_HTTP_WRONG_DAEMON naming both homes, on the hook and the control API alike', async () => {
    const { t, port } = await runningDaemon();
    const other = tempHome();
    const hook = await fetch(`http://127.0.0.1:${port}/hooks/SessionStart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gobby-home': other },
      body: JSON.stringify(hookPayload('SessionStart', t.newSessionId(), t.project, { source: 'startup' })),
    });
    expect(hook.status).toBe(409);
    const { error } = (await hook.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('GOBBY_ERR_HTTP_WRONG_DAEMON');
    expect(error.message).toContain(`held by the gobby daemon of GOBBY_HOME=${t.home}`);
    expect(error.message).toContain(`not by the daemon of GOBBY_HOME=${other}`);
    expect(error.message).toContain(`port 127.0.0.1:${port}`);
    // Nothing was recorded for the session the other home's client reported.
    expect((await t.status()).body.error.code).toBe('GOBBY_ERR_SESSION_NONE_IN_PROJECT');

    // Before the token: the wrong home, not a wrong token, is what the CLI of that home hears.
    const control = await fetch(`http://127.0.0.1:${port}/api/status?cwd=${encodeURIComponent(t.project)}`, { headers: { 'x-gobby-home': other } });
    expect(control.status).toBe(409);
  });

  it('is served when the header names the same home, spelled another way', async () => {
    const { t, port } = await runningDaemon();
    const hook = await fetch(`http://127.0.0.1:${port}/hooks/SessionStart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gobby-home': `${t.home}/./` },
      body: JSON.stringify(hookPayload('SessionStart', t.newSessionId(), t.project, { source: 'startup' })),
    });
    expect(hook.status).toBe(200);
  });
});

describe("a second GOBBY_HOME on the first home's port", () => {
  it('`daemon start` names both homes, the port and the fix, starts nothing, and exits 2', async () => {
    const { t, port } = await runningDaemon();
    const other = tempHome();
    const started = await gobby(['daemon', 'start'], { home: other, port });
    expect(started.code).toBe(2);
    const line = expectOneErrorLine(started, 'GOBBY_ERR_HTTP_WRONG_DAEMON');
    expect(line).toContain(`port 127.0.0.1:${port} is held by the gobby daemon of GOBBY_HOME=${t.home}`);
    expect(line).toContain(`not by the daemon of GOBBY_HOME=${other}`);
    expect(line).toContain(`give ${other} another one (GOBBY_PORT, or "port" in ${other}/config.json)`);
    expect(line).not.toContain('already running');
    expect(existsSync(join(other, 'daemon.json'))).toBe(false);
  });

  it('`daemon status`, `daemon stop` and `workflow status` refuse the other home\'s daemon, exit 2', async () => {
    const { t, port } = await runningDaemon();
    const other = tempHome();
    for (const args of [['daemon', 'status'], ['workflow', 'status'], ['daemon', 'stop']]) {
      const result = await gobby(args, { home: other, port });
      expect(result.code, args.join(' ')).toBe(2);
      expect(expectOneErrorLine(result, 'GOBBY_ERR_HTTP_WRONG_DAEMON')).toContain(`GOBBY_HOME=${t.home}`);
    }
    const json = await gobby(['daemon', 'status', '--json'], { home: other, port });
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'GOBBY_ERR_HTTP_WRONG_DAEMON' } });
  });

  it('the SessionStart client warns with both homes and records nothing in the other home', async () => {
    const { t, port } = await runningDaemon();
    const other = tempHome();
    const { run: result, systemMessage } = await sessionStartClient({ home: other, port });
    expect(result.code).toBe(0);
    expect(systemMessage).toMatch(/^gobby: port 127\.0\.0\.1:\d+ is held by the gobby daemon of GOBBY_HOME=/);
    expect(systemMessage).toContain(`GOBBY_HOME=${t.home}`);
    expect(systemMessage).toContain(`GOBBY_HOME=${other}`);
    expect(systemMessage).toContain('workflow enforcement is OFF for this session start');
    expect(systemMessage).not.toContain('daemon.log');
    expect(t.daemon.store.sessions.get('00000000-0000-4000-8000-00000000aaaa')).toBeUndefined();
  });
});

describe('another program on the port', () => {
  it('`daemon start`, `daemon status`, `daemon stop` and `workflow status` name the port and the fix, never its page, exit 2', async () => {
    const port = await htmlServer();
    const home = tempHome();
    for (const args of [['daemon', 'start'], ['daemon', 'status'], ['workflow', 'status'], ['daemon', 'stop']]) {
      const result = await gobby(args, { home, port });
      expect(result.code, args.join(' ')).toBe(2);
      const line = expectOneErrorLine(result, 'GOBBY_ERR_CLI_NOT_GOBBY');
      expect(line).toContain(`port 127.0.0.1:${port} is held by another program, not gobby (it answered HTTP 200, text/html)`);
      expect(line).toContain('Stop that program, or give gobby another port: GOBBY_PORT');
      expect(line).not.toMatch(/Router|<html/);
    }
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
  });

  it('the SessionStart client names the port and the fix, and points at no log', async () => {
    const port = await htmlServer();
    const home = tempHome();
    const { run: result, systemMessage } = await sessionStartClient({ home, port });
    expect(result.code).toBe(0);
    expect(systemMessage).toBe(
      `gobby: port 127.0.0.1:${port} is held by another program, not gobby (it answered HTTP 200, text/html). ` +
        `Stop that program, or give gobby another port: GOBBY_PORT, or "port" in ${home}/config.json; ` +
        'workflow enforcement is OFF for this session start.',
    );
    expect(result.stderr).not.toMatch(/Router|<html/);
  });
});

describe('a daemon that cannot start', () => {
  it('says why once, with one `gobby:`, without the stack, and exits 1', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.json'), '{"port": ');
    const started = await gobby(['daemon', 'start'], { home, port: 1 });
    expect(started.code).toBe(1);
    const line = expectOneErrorLine(started, 'GOBBY_ERR_CLI_START_FAILED');
    expect(line).toContain(`the daemon did not start: `);
    expect(line).toContain(`${home}/config.json is not valid JSON`);
    expect(line).not.toContain(' at ');
  });
});
