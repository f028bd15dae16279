import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { runClient, type RunClientOptions } from '../../hooks/client.js';

const PAYLOAD = '{"session_id":"s-1","hook_event_name":"SessionStart","source":"startup","cwd":"/tmp/p"}';
const ANSWER = '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"phase: plan"}}';

interface ReceivedHook {
  url: string;
  body: string;
  contentType: string | undefined;
  home: string | undefined;
}

interface FakeDaemon {
  server: Server;
  port: number;
  received: ReceivedHook[];
}

const servers: Server[] = [];
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Imitates the daemon: health, hook answers, and daemon.json in `home`. */
async function startFakeDaemon(home: string, hookStatus = 200, hookAnswer = ANSWER): Promise<FakeDaemon> {
  const received: ReceivedHook[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    res.setHeader('x-gobby-version', '0.1.0');
    if (req.method === 'GET' && req.url === '/api/identity') {
      const identity = { name: 'gobby', version: '0.1.0', pid: process.pid, home, port: null, startedAt: new Date().toISOString() };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(identity));
      return;
    }
    if (req.method === 'POST' && req.url?.startsWith('/hooks/')) {
      received.push({ url: req.url, body, contentType: req.headers['content-type'], home: req.headers['x-gobby-home'] as string | undefined });
      res.writeHead(hookStatus, { 'content-type': 'application/json' }).end(hookAnswer);
      return;
    }
    res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await writeFile(join(home, 'daemon.json'), JSON.stringify({ pid: process.pid, port, version: '0.1.0', startedAt: new Date().toISOString() }));
  return { server, port, received };
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function tempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'gobby-client-'));
  homes.push(home);
  return home;
}

function options(home: string, overrides: Partial<RunClientOptions>): RunClientOptions {
  return {
    event: 'SessionStart',
    lenient: false,
    stdin: PAYLOAD,
    env: { GOBBY_HOME: home, HOME: home },
    daemonMain: join(home, 'no-such-daemon', 'main.js'),
    spawnDaemon: () => {
      throw new Error('spawnDaemon must not be called');
    },
    startupTimeoutMs: 300,
    ...overrides,
  };
}

describe('runClient', () => {
  it('forwards the payload verbatim to the running daemon and prints its answer', async () => {
    const home = await tempHome();
    const daemon = await startFakeDaemon(home);
    const result = await runClient(options(home, {}));
    expect(result).toEqual({ stdout: ANSWER, stderr: '', exitCode: 0 });
    expect(daemon.received).toEqual([{ url: '/hooks/SessionStart', body: PAYLOAD, contentType: 'application/json', home }]);
  });

  it('starts the daemon when nothing answers, waits for its health check, then posts', async () => {
    const home = await tempHome();
    let daemon: FakeDaemon | undefined;
    const spawnCalls: Record<string, string | undefined>[] = [];
    const result = await runClient(
      options(home, {
        env: { GOBBY_HOME: home, HOME: home, GOBBY_PORT: String(await freePort()), CLAUDECODE: '1' },
        startupTimeoutMs: 5000,
        spawnDaemon: async ({ env }) => {
          spawnCalls.push(env);
          daemon = await startFakeDaemon(home);
        },
      }),
    );
    expect(result).toEqual({ stdout: ANSWER, stderr: '', exitCode: 0 });
    expect(spawnCalls).toHaveLength(1);
    expect(spawnCalls[0]?.['GOBBY_HOME']).toBe(home);
    expect(spawnCalls[0]).not.toHaveProperty('CLAUDECODE');
    expect(daemon?.received.map((r) => r.body)).toEqual([PAYLOAD]);
  });

  describe('when no daemon can be reached', () => {
    async function unreachable(overrides: Partial<RunClientOptions>) {
      const home = await tempHome();
      const port = await freePort();
      const result = await runClient(
        options(home, { env: { GOBBY_HOME: home, HOME: home, GOBBY_PORT: String(port) }, spawnDaemon: () => undefined, ...overrides }),
      );
      return { result, port };
    }

    it('strict SessionStart warns through systemMessage and exits 0 (it cannot block)', async () => {
      const { result, port } = await unreachable({});
      expect(result.exitCode).toBe(0);
      const { systemMessage } = JSON.parse(result.stdout) as { systemMessage: string };
      expect(systemMessage).toContain(`gobby: no gobby daemon answers on 127.0.0.1:${port} (`);
      expect(systemMessage).toContain('workflow enforcement is OFF for this session start. Start it with: gobby daemon start');
    });

    it('strict PreToolUse blocks with exit 2 and says why on stderr', async () => {
      const { result } = await unreachable({ event: 'PreToolUse' });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/no gobby daemon answers .*blocking this PreToolUse/);
    });

    it('lenient PreToolUse lets the action through with a note', async () => {
      const { result } = await unreachable({ event: 'PreToolUse', lenient: true });
      expect(result).toMatchObject({ stdout: '', exitCode: 0 });
      expect(result.stderr).toContain('lenient');
    });

    it('reports a daemon that cannot be started', async () => {
      const { result } = await unreachable({ spawnDaemon: undefined });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout).systemMessage).toContain('it could not be started: starting it failed: daemon entry point not found');
    });

    it('points at the startup log when the daemon wrote why it stopped there', async () => {
      const { result } = await unreachable({
        spawnDaemon: async ({ startupLog }) => {
          await writeFile(startupLog, 'gobby: the daemon could not start: /h/config.json is not valid JSON\n    at loadDaemonConfig (file:///x.js:1:1)\n');
          return { exitCode: () => 1 };
        },
      });
      const { systemMessage } = JSON.parse(result.stdout) as { systemMessage: string };
      expect(systemMessage).toContain('it could not be started: /h/config.json is not valid JSON;');
      expect(systemMessage).toMatch(/Details: .*\/logs\/daemon-start\.log$/);
      expect(systemMessage).not.toContain('loadDaemonConfig');
    });

    it('says once who speaks when the daemon\'s own startup error says it too', async () => {
      const { result } = await unreachable({
        spawnDaemon: async ({ startupLog }) => {
          await writeFile(startupLog, 'gobby: the daemon could not start: gobby: /h/gobby.db: file is not a database\n');
          return { exitCode: () => 1 };
        },
      });
      const { systemMessage } = JSON.parse(result.stdout) as { systemMessage: string };
      expect(systemMessage.match(/gobby: /g)).toHaveLength(1);
      expect(systemMessage).toContain('could not be started: /h/gobby.db: file is not a database');
    });
  });

  describe('when the daemon answers with an error status', () => {
    it('quotes its error, points at the daemon log for a 5xx, and applies the strict policy', async () => {
      const home = await tempHome();
      await startFakeDaemon(home, 500, '{"error":{"code":"GOBBY_ERR_INTERNAL","message":"internal error: database is locked"}}');
      const guard = await runClient(options(home, { event: 'PreToolUse' }));
      expect(guard.exitCode).toBe(2);
      expect(guard.stdout).toBe('');
      expect(guard.stderr).toContain('answered HTTP 500 GOBBY_ERR_INTERNAL: internal error: database is locked');
      expect(guard.stderr).toContain(`Details: ${join(home, 'logs', 'daemon.log')}`);

      const sessionStart = await runClient(options(home, {}));
      expect(sessionStart.exitCode).toBe(0);
      expect(JSON.parse(sessionStart.stdout).systemMessage).toContain('answered HTTP 500');
    });

    it("passes on, alone, the refusal of another home's daemon: it names both homes and the fix", async () => {
      const home = await tempHome();
      const message = 'port 127.0.0.1:7377 is held by the gobby daemon of GOBBY_HOME=/a, not by the daemon of GOBBY_HOME=/b. …';
      await startFakeDaemon(home, 409, JSON.stringify({ error: { code: 'GOBBY_ERR_HTTP_WRONG_DAEMON', message } }));
      const { systemMessage } = JSON.parse((await runClient(options(home, {}))).stdout) as { systemMessage: string };
      expect(systemMessage).toBe(`gobby: ${message}; workflow enforcement is OFF for this session start.`);
    });
  });

  describe('when another program holds the port', () => {
    it('names the port and the fix, never its answer, and points at no log', async () => {
      const home = await tempHome();
      const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>{"hello": "nginx"}</html>'));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const result = await runClient(options(home, { env: { GOBBY_HOME: home, HOME: home, GOBBY_PORT: String(port) } }));
      expect(result.exitCode).toBe(0);
      const { systemMessage } = JSON.parse(result.stdout) as { systemMessage: string };
      expect(systemMessage).toBe(
        `gobby: port 127.0.0.1:${port} is held by another program, not gobby (it answered HTTP 200, text/html). ` +
          `Stop that program, or give gobby another port: GOBBY_PORT, or "port" in ${home}/config.json; ` +
          'workflow enforcement is OFF for this session start.',
      );
      expect(result.stderr).not.toContain('nginx');
    });
  });

  it('rejects a missing event name with usage', async () => {
    const result = await runClient(options(await tempHome(), { event: '' }));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('usage:');
  });
});
