// How the gobby CLI reports errors, run as a user runs it (the built dist/ CLI, a temporary
// GOBBY_HOME): one `gobby: <message> [CODE]` line on stderr, or with --json the error object
// on stdout, and the exit status of the code either way. `npm test` builds dist/ first.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callDaemon, locateDaemon } from '../../daemon/cli/daemon-client.js';
import { CONTROL_API, GOBBY_VERSION_HEADER } from '../../daemon/contracts/control-api.js';
import { GobbyError } from '../../hooks/errors.js';
import { runBuiltEntry, type EntryRun } from '../support/built-entry.js';
import { GOBBY_CLI } from '../support/gobby-process.js';
import { TestDaemon, TOKEN, writeProjectWorkflow, type Json } from './test-daemon.js';

type Run = EntryRun;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
  if (!existsSync(GOBBY_CLI)) throw new Error(`${GOBBY_CLI} is missing: run \`npm run build\` first`);
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the CLI without inheriting this shell's environment (CLAUDECODE, a real GOBBY_HOME). */
function gobby(args: readonly string[], env: { home: string; port: number | string }, cwd = env.home): Promise<Run> {
  return runBuiltEntry(GOBBY_CLI, args, env, { cwd });
}

/** A port nothing listens on: one the OS just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = await listen(createServer());
  const port = portOf(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listen(server: Server): Promise<Server> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return address.port;
}

/** Another program on the daemon's port, answering every request with `body`. */
async function foreignServer(answer: { status: number; contentType: string; body: string; headers?: Record<string, string> }): Promise<number> {
  const server = await listen(
    createServer((_request, response) => {
      response.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers });
      response.end(answer.body);
    }),
  );
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return portOf(server);
}

function expectOneErrorLine(run: Run, code: string): string {
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^gobby: .+ \\[${code}\\]$`));
  expect(lines[0]!.match(/gobby:/g)).toHaveLength(1);
  return lines[0]!;
}

function expectJsonError(run: Run, code: string): string {
  expect(run.stderr).toBe('');
  const printed = JSON.parse(run.stdout) as unknown;
  expect(printed).toEqual({ error: { code, message: expect.any(String) } });
  return (printed as { error: { message: string } }).error.message;
}

describe('with no daemon running', () => {
  it('prints one line with the code and exits 2', async () => {
    const env = { home: tempDir('gobby-cli-home-'), port: await closedPort() };
    const run = await gobby(['workflow', 'status'], env);
    expect(run.code).toBe(2);
    expect(expectOneErrorLine(run, 'GOBBY_ERR_CLI_DAEMON_UNREACHABLE')).toContain('Start it with: gobby daemon start');
  });

  it('prints the error object on stdout with --json and exits 2', async () => {
    const env = { home: tempDir('gobby-cli-home-'), port: await closedPort() };
    const run = await gobby(['workflow', 'status', '--json'], env);
    expect(run.code).toBe(2);
    expect(expectJsonError(run, 'GOBBY_ERR_CLI_DAEMON_UNREACHABLE')).toContain(`127.0.0.1:${env.port}`);
  });
});

describe('usage and installer errors', () => {
  it('reports a missing argument as GOBBY_ERR_CLI_USAGE, as JSON with --json, exit 1', async () => {
    const env = { home: tempDir('gobby-cli-home-'), port: await closedPort() };
    const run = await gobby(['workflow', 'phase', '--json'], env);
    expect(run.code).toBe(1);
    expect(expectJsonError(run, 'GOBBY_ERR_CLI_USAGE')).toContain("missing required argument 'name'");
  });

  it('asks for --reason before it looks for a daemon or a session, for every escape hatch that needs one', async () => {
    const env = { home: tempDir('gobby-cli-home-'), port: await closedPort() };
    for (const [args, what] of [[['workflow', 'phase', 'execute', '--force'], 'phase --force'], [['workflow', 'disable', '--for', '30m'], 'disable'], [['workflow', 'reset', '--reason', ' '], 'reset']] as const) {
      const run = await gobby(args, env);
      expect(run.code, args.join(' ')).toBe(1);
      expect(expectOneErrorLine(run, 'GOBBY_ERR_OVERRIDE_REASON_REQUIRED')).toContain(`${what} needs --reason`);
    }
  });

  it('checks audit --limit itself, before it looks for a daemon, exit 1', async () => {
    const env = { home: tempDir('gobby-cli-home-'), port: await closedPort() };
    for (const limit of ['abc', '0', '2000', '1.5']) {
      const run = await gobby(['workflow', 'audit', '--limit', limit], env);
      expect(run.code, limit).toBe(1);
      expect(expectOneErrorLine(run, 'GOBBY_ERR_CLI_USAGE')).toContain('a whole number from 1 to 1000');
    }
  });

  it('refuses a --project folder that does not exist instead of making it, exit 1', async () => {
    const home = tempDir('gobby-cli-home-');
    const missing = join(home, 'projcet');
    for (const command of ['install', 'uninstall']) {
      const run = await gobby([command, '--project', missing], { home, port: await closedPort() });
      expect(run.code, command).toBe(1);
      expect(expectOneErrorLine(run, 'GOBBY_ERR_CLI_USAGE')).toContain(`${missing} is not a folder`);
    }
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses a GOBBY_PORT that is not a port instead of using 7377, for the daemon, the installer and every command, exit 1', async () => {
    const home = tempDir('gobby-cli-home-');
    const project = join(home, 'project');
    mkdirSync(project);
    for (const port of ['abc', '0', '70000', '7377x']) {
      for (const args of [['daemon', 'status'], ['daemon', 'start'], ['workflow', 'status'], ['install', '--project', project]]) {
        const run = await gobby(args, { home, port });
        expect(run.code, `${port}: ${args.join(' ')}`).toBe(1);
        expect(expectOneErrorLine(run, 'GOBBY_ERR_CLI_CONFIG_INVALID')).toContain(`GOBBY_PORT="${port}" is not a TCP port: set a whole number from 1 to 65535, or unset it for 7377`);
      }
    }
    expect(existsSync(join(project, '.claude'))).toBe(false);
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
  });

  it('names config.json when its "port" is not a port, with --json too', async () => {
    const home = tempDir('gobby-cli-home-');
    writeFileSync(join(home, 'config.json'), '{"port": "7000"}');
    const run = await gobby(['daemon', 'start', '--json'], { home, port: '' });
    expect(run.code).toBe(1);
    expect(expectJsonError(run, 'GOBBY_ERR_CLI_CONFIG_INVALID')).toBe(`"port" in ${join(home, 'config.json')} is "7000", not a TCP port: set a whole number from 1 to 65535, or remove the key for 7377`);
  });

  it('reports a settings file that is not JSON once, with its code, exit 1', async () => {
    const home = tempDir('gobby-cli-home-');
    const settings = join(home, 'project', '.claude', 'settings.json');
    mkdirSync(join(home, 'project', '.claude'), { recursive: true });
    writeFileSync(settings, '{"hooks": ');
    const run = await gobby(['install', '--shared', '--project', join(home, 'project')], { home, port: await closedPort() });
    expect(run.code).toBe(1);
    expect(expectOneErrorLine(run, 'GOBBY_ERR_INSTALL_INVALID_JSON')).toContain(settings);
  });
});

describe('when something other than gobby holds the port', () => {
  it('names the port instead of printing the HTML it got, exit 2', async () => {
    const port = await foreignServer({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body>router admin</body></html>' });
    const run = await gobby(['workflow', 'status'], { home: tempDir('gobby-cli-home-'), port });
    expect(run.code).toBe(2);
    const line = expectOneErrorLine(run, 'GOBBY_ERR_CLI_NOT_GOBBY');
    expect(line).toContain(`127.0.0.1:${port}`);
    expect(line).toContain('text/html');
    expect(line).not.toContain('<');
  });

  it("treats another server's JSON error as not gobby's", async () => {
    const port = await foreignServer({ status: 404, contentType: 'application/json', body: '{"error":"Not Found","statusCode":404}' });
    const run = await gobby(['workflow', 'list', '--json'], { home: tempDir('gobby-cli-home-'), port });
    expect(run.code).toBe(2);
    expect(expectJsonError(run, 'GOBBY_ERR_CLI_NOT_GOBBY')).toContain(`127.0.0.1:${port}`);
  });
});

describe('a daemon that holds the port but does not answer', () => {
  it('is said to be busy or stuck, not "not running", and the command still exits 2', async () => {
    const sockets: import('node:net').Socket[] = [];
    const server = await listen(createServer());
    // Takes the request and never answers: the CLI gives up after its request timeout.
    server.on('request', (request) => sockets.push(request.socket));
    cleanups.push(() => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }));
    const result = await gobby(['daemon', 'status'], { home: tempDir('gobby-cli-stuck-'), port: portOf(server) });
    expect(result.code).toBe(2);
    const line = expectOneErrorLine(result, 'GOBBY_ERR_CLI_DAEMON_UNREACHABLE');
    expect(line).toContain('did not answer within 5 s: it is running but busy or stuck');
    expect(line).not.toContain('not running');
  }, 20_000);
});

describe('help', () => {
  it.each([['hook'], ['statusline'], ['hook', 'SessionStart']])('`gobby %s --help` prints the command\'s usage and exits 0', async (...args) => {
    const result = await gobby([...args, '--help'], { home: tempDir('gobby-cli-help-'), port: await closedPort() });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: gobby ${args[0]} `));
  });
});

describe('a gobby daemon answer the CLI cannot read', () => {
  it('becomes GOBBY_ERR_CLI_BAD_ANSWER naming the field and both versions', async () => {
    const port = await foreignServer({
      status: 200,
      contentType: 'application/json',
      headers: { [GOBBY_VERSION_HEADER]: '9.9.9' },
      body: JSON.stringify({ ok: true, version: '9.9.9', pid: 'one' }),
    });
    const address = locateDaemon({ GOBBY_HOME: tempDir('gobby-cli-home-'), GOBBY_PORT: String(port) });
    const failure = await callDaemon(address, CONTROL_API.daemon).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GobbyError);
    expect(failure).toMatchObject({ code: 'GOBBY_ERR_CLI_BAD_ANSWER', exitCode: 2 });
    expect((failure as GobbyError).message).toMatch(/version 9\.9\.9.*pid/);
  });
});

/** A daemon listening on loopback with a known token, and the CLI environment that reaches it. */
async function runningDaemon(): Promise<{ t: TestDaemon; env: { home: string; port: number } }> {
  const t = TestDaemon.create();
  cleanups.push(() => t.dispose());
  writeFileSync(t.layout.token, `${TOKEN}\n`, { mode: 0o600 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, env: { home: t.home, port: portOf(t.app.server) } };
}

describe('against a running daemon', () => {
  it("passes on the daemon's refusal with its code, and exits 1", async () => {
    const { t, env } = await runningDaemon();
    await t.setWorkflow('plan-execute');
    await t.sessionStart(t.newSessionId());
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute', force: true, reason: 'test' });
    const refused = await gobby(['workflow', 'phase', 'plan', '--json'], env, t.project);
    expect(refused.code).toBe(1);
    expect(expectJsonError(refused, 'GOBBY_ERR_PHASE_NOT_ALLOWED')).toContain('--force');
    const human = await gobby(['workflow', 'phase', 'plan'], env, t.project);
    expect(human.code).toBe(1);
    expectOneErrorLine(human, 'GOBBY_ERR_PHASE_NOT_ALLOWED');
  });

  it('says a session is already in the phase asked for, changes nothing, and exits 0', async () => {
    const { t, env } = await runningDaemon();
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    await t.sessionStart(session);
    const rowsBefore = t.auditRows(session).length;
    const same = await gobby(['workflow', 'phase', 'plan'], env, t.project);
    expect(same).toMatchObject({ code: 0, stderr: '' });
    expect(same.stdout).toContain('plan-execute is already in the plan phase; nothing changed');
    expect(same.stdout).not.toContain('does not allow');
    const json = JSON.parse((await gobby(['workflow', 'phase', 'plan', '--json'], env, t.project)).stdout) as Json;
    expect(json).toMatchObject({ from: 'plan', to: 'plan', changed: false, forced: false });
    expect(t.auditRows(session)).toHaveLength(rowsBefore);
  });

  it('says enforcement was not disabled when `enable` has nothing to turn back on, and exits 0', async () => {
    const { t, env } = await runningDaemon();
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    await t.sessionStart(session);
    const enabled = await gobby(['workflow', 'enable'], env, t.project);
    expect(enabled).toMatchObject({ code: 0, stderr: '' });
    expect(enabled.stdout).toContain('enforcement was not disabled; nothing changed');
    expect(enabled.stdout).not.toContain('enabled again');
    expect(t.auditRows(session).some((row) => row.event === 'override:enable')).toBe(false);

    await gobby(['workflow', 'disable', '--reason', 'a spike'], env, t.project);
    const again = await gobby(['workflow', 'enable'], env, t.project);
    expect(again.stdout).toContain('enforcement enabled again');
  });

  it("lists the project's recent workflow choices with who and why", async () => {
    const { t, env } = await runningDaemon();
    await t.api('PUT', '/api/projects/workflow', { cwd: t.project, workflow: 'plan-execute', reason: 'the team plans first' });
    const listed = await gobby(['workflow', 'list'], env, t.project);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('recent choices for this project (newest first):');
    expect(listed.stdout).toMatch(/project workflow plan-execute .*\[cli:tester\] {2}reason: the team plans first/);
  });

  it('fails `workflow list` (exit 1) when the chosen workflow\'s file is gone, and says what runs instead', async () => {
    const { t, env } = await runningDaemon();
    const file = writeProjectWorkflow(t.project, 'gone.yaml', 'name: gone\nphases:\n  - name: only\n');
    expect((await t.setWorkflow('gone')).status).toBe(200);
    rmSync(file);
    const listed = await gobby(['workflow', 'list'], env, t.project);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/^error: the project's workflow `gone`: .*the file is gone.*last good version/m);
  });

  it('prints the parsed status, with the phase an approval waits in', async () => {
    const { t, env } = await runningDaemon();
    const session = await t.planningSession();
    await t.stop(session);
    const json = await gobby(['workflow', 'status', '--json'], env, t.project);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ session_id: session, phase: 'plan', pending_approval: { phase: 'plan' } });
    const human = await gobby(['workflow', 'status'], env, t.project);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/approval +pending in plan: "Plan complete\. Ready to implement\?"/);
  });
});

describe('inside Claude Code (CLAUDECODE=1)', () => {
  const INSIDE = { CLAUDECODE: '1' };

  it('refuses daemon stop, install, uninstall and setup with GOBBY_ERR_CLI_HUMAN_ONLY, exit 1, and changes nothing', async () => {
    const { t, env } = await runningDaemon();
    const binDir = join(t.home, 'bin');
    for (const [args, command] of [
      [['daemon', 'stop'], 'gobby daemon stop'],
      [['install'], 'gobby install'],
      [['uninstall'], 'gobby uninstall'],
      [['setup', '--no-start', '--bin-dir', binDir], 'gobby setup'],
    ] as const) {
      const run = await runBuiltEntry(GOBBY_CLI, args, env, { cwd: t.project, extraEnv: INSIDE });
      expect(run.code, args.join(' ')).toBe(1);
      expect(expectOneErrorLine(run, 'GOBBY_ERR_CLI_HUMAN_ONLY')).toContain(`\`${command}\` is for humans`);
    }
    expect(existsSync(join(t.project, '.claude'))).toBe(false);
    expect(existsSync(join(binDir, 'gobby'))).toBe(false);
    expect(t.app.server.listening).toBe(true);
  });

  it('still runs `gobby hook SessionStart`, which Claude Code itself runs with CLAUDECODE=1', async () => {
    const { t, env } = await runningDaemon();
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    const payload = JSON.stringify({ session_id: session, cwd: t.project, hook_event_name: 'SessionStart', source: 'startup' });
    const run = await runBuiltEntry(GOBBY_CLI, ['hook', 'SessionStart', '--port', String(env.port)], env, { cwd: t.project, stdin: payload, extraEnv: INSIDE });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty('hookSpecificOutput');
    expect(t.auditRows(session).map((row) => row.event)).toContain('SessionStart');
  });
});
