// The SessionStart command as Claude Code runs it (bash -c, the payload on stdin): bash posts to
// the daemon itself through /dev/tcp, another shell with one curl, the `gobby hook` fallback runs
// when neither gets gobby's answer, and one clear message when a shared install meets a machine
// without gobby.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { buildSessionStartCommand } from '../../hooks/session-start-command.js';
import { quoteForShell } from '../../hooks/shell-quote.js';

const PAYLOAD = JSON.stringify({ session_id: 'abc', hook_event_name: 'SessionStart', cwd: "/tmp/it's here", source: 'startup' });

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Received {
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

async function daemonStub(status: number, body: string, contentType = 'application/json'): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ url: req.url, headers: req.headers, body: text });
      res.writeHead(status, { 'content-type': contentType }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => void server.close());
  return { port: (server.address() as AddressInfo).port, received };
}

/** A stand-in for `gobby`: records its arguments and stdin, answers `{"fallback":true}`. */
function fakeLauncher(): { command: string; record: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gobby-launcher-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const record = join(dir, 'record');
  const script = join(dir, 'launcher');
  writeFileSync(script, `#!/bin/sh\n{ echo "$@"; cat; } > ${quoteForShell(record)}\necho '{"fallback":true}'\n`);
  chmodSync(script, 0o755);
  return { command: quoteForShell(script), record };
}

function runBash(command: string, env: Record<string, string> = {}, shell = 'bash', payload = PAYLOAD): Promise<{ code: number | null; stdout: string; stderr: string; pid: number | undefined }> {
  return new Promise((resolve, reject) => {
    // HOME elsewhere: bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are.
    const child = spawn(shell, ['-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, pid: child.pid }));
    child.stdin.end(payload);
  });
}

/** A PATH of one folder holding only these programs (links to the real ones). */
function pathWith(...programs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'gobby-path-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const program of programs) {
    const real = ['/usr/bin', '/bin'].map((folder) => join(folder, program)).find((candidate) => existsSync(candidate));
    if (real === undefined) throw new Error(`test: no ${program} on this machine`);
    symlinkSync(real, join(dir, program));
  }
  return dir;
}

describe('buildSessionStartCommand', () => {
  it('run by /bin/sh as Claude Code runs it, hands itself to bash, which posts through /dev/tcp: no cat, no curl', async () => {
    const daemon = await daemonStub(200, '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hi"}}');
    const launcher = fakeLauncher();
    const home = "/tmp/it's $HOME %s";
    // Multi-byte text: content-length counts bytes, not characters.
    const payload = JSON.stringify({ session_id: 'abc', hook_event_name: 'SessionStart', cwd: '/tmp/café ☕ dir', source: 'startup' });
    const command = buildSessionStartCommand({ port: daemon.port, launcher: launcher.command, home, lenient: true });
    // bash and nothing else on PATH: any other program the command tried to start would not be found.
    const run = await runBash(command, { PATH: pathWith('bash') }, '/bin/sh', payload);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toBe('hi');
    expect(daemon.received).toHaveLength(1);
    const [request] = daemon.received;
    expect(request?.url).toBe('/hooks/SessionStart');
    expect(request?.body).toBe(payload);
    expect(request?.headers).toMatchObject({
      host: `127.0.0.1:${daemon.port}`,
      'content-length': String(Buffer.byteLength(payload)),
      'content-type': 'application/json',
      'x-gobby-hook': '1',
      'x-gobby-home': home,
      'x-gobby-failure-mode': 'lenient',
      // The shell Claude Code started, now bash (exec), holds the connection: the daemon checks that pid.
      'x-gobby-client-pid': String(run.pid),
    });
    expect(() => readFileSync(launcher.record)).toThrow();
  });

  it('where there is no bash, posts the payload to the running daemon with curl and prints its answer; no fallback runs', async () => {
    const daemon = await daemonStub(200, '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hi"}}');
    const launcher = fakeLauncher();
    const home = "/tmp/it's $HOME";
    const run = await runBash(buildSessionStartCommand({ port: daemon.port, launcher: launcher.command, home, lenient: false }), { PATH: pathWith('sh', 'cat', 'curl') }, '/bin/sh');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toBe('hi');
    expect(daemon.received).toHaveLength(1);
    const [request] = daemon.received;
    expect(request?.url).toBe('/hooks/SessionStart');
    expect(request?.body).toBe(PAYLOAD);
    expect(request?.headers).toMatchObject({ 'content-type': 'application/json', 'x-gobby-hook': '1', 'x-gobby-home': home, 'x-gobby-failure-mode': 'strict' });
    expect(Number(request?.headers['x-gobby-client-pid'])).toBeGreaterThan(0);
    expect(() => readFileSync(launcher.record)).toThrow();
  });

  it.each([
    ['the daemon answers an error status', 500, '{"error":{}}', 'application/json'],
    ['another program answers with HTML', 200, '<html>router</html>', 'text/html'],
  ])('hands the same payload to `gobby hook SessionStart` when %s', async (_what, status, body, type) => {
    const daemon = await daemonStub(status, body, type);
    const launcher = fakeLauncher();
    const run = await runBash(buildSessionStartCommand({ port: daemon.port, launcher: launcher.command, lenient: true }));
    expect(run.code).toBe(0);
    // What answered on the port decided: curl was not tried as well.
    expect(daemon.received).toHaveLength(1);
    expect(run.stdout.trim()).toBe('{"fallback":true}');
    expect(run.stdout).not.toContain('html');
    expect(readFileSync(launcher.record, 'utf8')).toBe(`hook SessionStart --port ${daemon.port} --lenient\n${PAYLOAD}`);
  });

  it('falls back when a daemon takes the connection but never answers, after the answer budget', async () => {
    const sockets: Socket[] = [];
    const hung = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      hung.close();
    });
    const port = (hung.address() as AddressInfo).port;
    const launcher = fakeLauncher();
    const started = Date.now();
    const run = await runBash(buildSessionStartCommand({ port, launcher: launcher.command, lenient: true }), {}, '/bin/sh');
    expect(run.stdout.trim()).toBe('{"fallback":true}');
    expect(readFileSync(launcher.record, 'utf8')).toBe(`hook SessionStart --port ${port} --lenient\n${PAYLOAD}`);
    // About two seconds (the budget), not a hang until Claude Code's hook timeout.
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);

  it('reads an answer longer than bash reads at once, in full', async () => {
    const context = `${'a line of context with "quotes", \\ and ünïcödé\\n'.repeat(400)}end`;
    const answer = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } });
    const daemon = await daemonStub(200, answer);
    const run = await runBash(buildSessionStartCommand({ port: daemon.port, launcher: fakeLauncher().command, lenient: true }), { PATH: pathWith('bash') }, '/bin/sh');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toBe(context);
  });

  it('falls back when nothing listens, and sends no home header for a shared install', async () => {
    const daemon = await daemonStub(200, '{}');
    const port = daemon.port;
    cleanups.splice(0).forEach((cleanup) => cleanup());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const launcher = fakeLauncher();
    const command = buildSessionStartCommand({ port, launcher: launcher.command, lenient: false });
    expect(command).not.toContain('x-gobby-home');
    const run = await runBash(command);
    expect(run.stdout.trim()).toBe('{"fallback":true}');
    expect(readFileSync(launcher.record, 'utf8')).toBe(`hook SessionStart --port ${port}\n${PAYLOAD}`);
  });

  it('without gobby on PATH prints the one message as a systemMessage and exits 0, never "command not found"', async () => {
    const daemon = await daemonStub(503, '');
    const message = "This project uses gobby; it's not installed here. Run `npm ci && npm run setup`.";
    const command = buildSessionStartCommand({ port: daemon.port, launcher: 'gobby', lenient: true, missingGobbyMessage: message });
    // PATH with sh, cat and curl but no gobby.
    const run = await runBash(command, { PATH: '/usr/bin:/bin' });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ systemMessage: message });
  });

  it('ends outside any quote, so that the marker uninstall recognises is a comment that ends it', async () => {
    const command = buildSessionStartCommand({ port: 7377, launcher: 'gobby', lenient: false });
    expect(command).toMatch(/; eval "\$s"$/);
    expect(command).toContain('| gobby hook SessionStart --port 7377');
    const daemon = await daemonStub(200, '{"marked":true}');
    const marked = `${buildSessionStartCommand({ port: daemon.port, launcher: 'gobby', lenient: false })} # gobby-hook`;
    expect((await runBash(marked, {}, '/bin/sh')).stdout).toBe('{"marked":true}\n');
  });
});
