// Finding, checking and starting the daemon: the part the SessionStart client and
// `gobby daemon start` share. Fake daemons are plain node:http servers.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative as relativePath } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { homeLayout } from '../../daemon/home-layout.js';
import { resolveGobbyHome } from '../../hooks/daemon-file.js';
import {
  daemonLogPath,
  ensureDaemon,
  locateDaemon,
  probeDaemon,
  sameGobbyHome,
  startupLogPath,
  type EnsureDaemonOptions,
  type SpawnDaemon,
} from '../../hooks/daemon-locator.js';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(prefix = 'gobby-locator-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Answers /api/identity with `identity` on a free port, marked as gobby's answers are. */
async function startIdentityServer(identity: Record<string, unknown>, port = 0): Promise<number> {
  const server = createServer((req, res) => {
    res.setHeader('x-gobby-version', '0.1.0');
    if (req.url === '/api/identity') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(identity));
    else res.writeHead(404).end();
  });
  return listen(server, port);
}

/** Another program: whatever is asked, an HTML page. */
async function startHtmlServer(): Promise<number> {
  return listen(
    createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>Welcome to nginx!</body></html>')),
  );
}

async function listen(server: Server, port = 0): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function gobbyIdentity(home: string, pid = 4242): Record<string, unknown> {
  return { name: 'gobby', version: '0.1.0', pid, home, port: null, startedAt: '2026-01-01T00:00:00.000Z' };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function writeDaemonFile(home: string, port: number): Promise<void> {
  await writeFile(join(home, 'daemon.json'), JSON.stringify({ pid: 4242, port, version: '0.1.0', startedAt: '2026-01-01T00:00:00.000Z' }));
}

function options(home: string, port: number, overrides: Partial<EnsureDaemonOptions> = {}): EnsureDaemonOptions {
  return {
    env: { GOBBY_HOME: home, HOME: home, GOBBY_PORT: String(port) },
    daemonMain: join(home, 'no-such-daemon', 'main.js'),
    startupTimeoutMs: 2000,
    spawnDaemon: () => {
      throw new Error('spawnDaemon must not be called');
    },
    ...overrides,
  };
}

describe('locateDaemon', () => {
  it('prefers the port in daemon.json, else the configured one', async () => {
    const home = await tempDir();
    expect(locateDaemon({ GOBBY_HOME: home, GOBBY_PORT: '4100' })).toEqual({ home, port: 4100, baseUrl: 'http://127.0.0.1:4100' });
    await writeDaemonFile(home, 4200);
    expect(locateDaemon({ GOBBY_HOME: home, GOBBY_PORT: '4100' }).port).toBe(4200);
  });
});

describe('probeDaemon', () => {
  it("tells this home's daemon from another home's, an older gobby, another program and nothing", async () => {
    const home = await tempDir();
    const other = await tempDir();
    expect(await probeDaemon(await startIdentityServer(gobbyIdentity(home)), home)).toEqual({ kind: 'ours', identity: gobbyIdentity(home) });
    expect(await probeDaemon(await startIdentityServer(gobbyIdentity(other)), home)).toEqual({ kind: 'other-home', identity: gobbyIdentity(other) });
    expect(await probeDaemon(await startIdentityServer({ ok: true }), home)).toEqual({ kind: 'other-gobby', version: '0.1.0' });
    expect(await probeDaemon(await startHtmlServer(), home)).toEqual({ kind: 'not-gobby', status: 200, contentType: 'text/html' });
    expect(await probeDaemon(await freePort(), home)).toMatchObject({ kind: 'nothing' });
  });

  it('takes two spellings of one home as the same home', async () => {
    const home = await tempDir();
    expect(sameGobbyHome(home, `${home}/./`)).toBe(true);
    expect(sameGobbyHome(home, `${home}-other`)).toBe(false);
  });

  it("names the daemon log the daemon writes", () => {
    expect(daemonLogPath('/h')).toBe(homeLayout('/h').logFile);
  });
});

describe('ensureDaemon', () => {
  it('finds a running daemon on the configured port when daemon.json is stale, and starts nothing', async () => {
    const home = await tempDir();
    await writeDaemonFile(home, await freePort());
    const port = await startIdentityServer(gobbyIdentity(home));
    expect(await ensureDaemon(options(home, port))).toEqual({ kind: 'running', port, identity: gobbyIdentity(home) });
  });

  it('starts the daemon without the session variables and waits for its health check', async () => {
    const home = await tempDir();
    const port = await freePort();
    const spawned: Record<string, string | undefined>[] = [];
    const spawnDaemon: SpawnDaemon = async ({ env }) => {
      spawned.push(env);
      setTimeout(() => void startIdentityServer(gobbyIdentity(home, 77), port), 150);
    };
    const result = await ensureDaemon(options(home, port, { spawnDaemon, env: { GOBBY_HOME: home, GOBBY_PORT: String(port), CLAUDECODE: '1' } }));
    expect(result).toEqual({ kind: 'started', port, identity: gobbyIdentity(home, 77) });
    expect(spawned).toHaveLength(1);
    expect(spawned[0]).toEqual({ GOBBY_HOME: home, GOBBY_PORT: String(port) });
  });

  it('starts the daemon with the home it resolved, so a relative GOBBY_HOME or an empty HOME names one folder for both', async () => {
    const home = await tempDir();
    const port = await freePort();
    const spawned: Record<string, string | undefined>[] = [];
    const spawnDaemon: SpawnDaemon = async ({ env }) => {
      spawned.push(env);
      setTimeout(() => void startIdentityServer(gobbyIdentity(home, 78), port), 150);
    };
    const relative = relativePath(process.cwd(), home);
    await ensureDaemon(options(home, port, { spawnDaemon, env: { GOBBY_HOME: relative, GOBBY_PORT: String(port) } }));
    // The daemon runs in another folder (its entry point's): `relative` there would be another home.
    expect(spawned[0]!.GOBBY_HOME).toBe(home);
    // Without a usable HOME: the account's home, the same absolute folder from any working directory.
    const account = resolveGobbyHome({});
    expect(isAbsolute(account)).toBe(true);
    expect(resolveGobbyHome({ HOME: '' })).toBe(account);
    expect(resolveGobbyHome({ HOME: 'relative/home' })).toBe(account);
    expect(resolveGobbyHome({ HOME: '/home/dev' })).toBe('/home/dev/.gobby');
  });

  it('when two starts race, the loser waits for the winner', async () => {
    const home = await tempDir();
    const port = await freePort();
    // The loser's process exits at once with "already running"; the winner answers a little later.
    const spawnDaemon: SpawnDaemon = () => {
      setTimeout(() => void startIdentityServer(gobbyIdentity(home, 88), port), 300);
      return { exitCode: () => 3 };
    };
    expect(await ensureDaemon(options(home, port, { spawnDaemon }))).toEqual({ kind: 'running', port, identity: gobbyIdentity(home, 88) });
  });

  it('reports the lock holder when the winner of a race never answers', async () => {
    const home = await tempDir();
    const spawnDaemon: SpawnDaemon = async ({ startupLog }) => {
      await writeFile(startupLog, `gobby: a daemon is already running for GOBBY_HOME=${home} (pid 1, port 2)\n`);
      return { exitCode: () => 3 };
    };
    const result = await ensureDaemon(options(home, await freePort(), { spawnDaemon, startupTimeoutMs: 300 }));
    expect(result).toEqual({ kind: 'failed', reason: 'already-running', why: `a daemon is already running for GOBBY_HOME=${home} (pid 1, port 2)` });
  });

  it('explains a start that fails with what the daemon wrote to its startup log (a taken port)', async () => {
    const home = await tempDir();
    const port = await freePort();
    // A real process through the real spawn: a stand-in daemon that fails the way main.ts does.
    const daemonMain = join(home, 'fake-main.mjs');
    await writeFile(
      daemonMain,
      `process.stderr.write('gobby: the daemon could not start: port ${port} on 127.0.0.1 is in use by another program\\n'); process.exit(1);\n`,
    );
    const started = Date.now();
    const result = await ensureDaemon({ env: { GOBBY_HOME: home, GOBBY_PORT: String(port) }, daemonMain, startupTimeoutMs: 10_000 });
    expect(result).toEqual({ kind: 'failed', reason: 'not-started', why: `port ${port} on 127.0.0.1 is in use by another program` });
    // It stops waiting once the process is gone, not at the deadline.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await readFile(startupLogPath(home), 'utf8')).toContain('is in use');
  });

  it("starts nothing when another home's daemon holds the port, and names both homes and the fix", async () => {
    const home = await tempDir();
    const other = await tempDir();
    const port = await startIdentityServer(gobbyIdentity(other, 99));
    const result = await ensureDaemon(options(home, port));
    expect(result).toMatchObject({ kind: 'failed', reason: 'port-taken', port, conflict: { kind: 'other-home' } });
    const why = result.kind === 'failed' ? result.why : '';
    expect(why).toContain(`port 127.0.0.1:${port} is held by the gobby daemon of GOBBY_HOME=${other} (pid 99)`);
    expect(why).toContain(`not by the daemon of GOBBY_HOME=${home}`);
    expect(why).toContain(`GOBBY_PORT, or "port" in ${home}/config.json`);
  });

  it('starts nothing when another program holds the port, and never quotes its answer', async () => {
    const home = await tempDir();
    const port = await startHtmlServer();
    const result = await ensureDaemon(options(home, port));
    expect(result).toMatchObject({ kind: 'failed', reason: 'port-taken', conflict: { kind: 'not-gobby' } });
    const why = result.kind === 'failed' ? result.why : '';
    expect(why).toContain(`port 127.0.0.1:${port} is held by another program, not gobby (it answered HTTP 200, text/html)`);
    expect(why).toContain('Stop that program, or give gobby another port: GOBBY_PORT');
    expect(why).not.toContain('nginx');
  });

  it('says when the entry point is missing (gobby not built)', async () => {
    const home = await tempDir();
    const result = await ensureDaemon(options(home, await freePort(), { spawnDaemon: undefined }));
    expect(result).toMatchObject({ kind: 'failed', reason: 'not-started' });
    expect(result.kind === 'failed' && result.why).toContain('daemon entry point not found');
  });
});
