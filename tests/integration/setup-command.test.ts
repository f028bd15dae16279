// `gobby setup` as the README's set-up command runs it (`npm run setup` runs the built CLI):
// a launcher on the user's PATH without root, a daemon running, and nothing of the user's
// overwritten. Each test has its own HOME, GOBBY_HOME and port.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GOBBY_CLI } from '../support/gobby-process.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function run(file: string, args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { env, cwd: env.HOME }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function machine(options: { binOnPath: boolean }) {
  const home = mkdtempSync(join(tmpdir(), 'gobby-setup-'));
  const bin = join(home, '.local', 'bin');
  const env = {
    HOME: home,
    GOBBY_HOME: join(home, '.gobby'),
    GOBBY_PORT: String(await freePort()),
    PATH: `${options.binOnPath ? `${bin}:` : ''}${process.env.PATH ?? '/usr/bin:/bin'}`,
  };
  const setup = (...args: string[]) => run(process.execPath, [GOBBY_CLI, 'setup', ...args], env);
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  cleanups.push(() => run(process.execPath, [GOBBY_CLI, 'daemon', 'stop'], env));
  return { home, bin, env, setup };
}

describe('gobby setup', () => {
  it('puts a working `gobby` in ~/.local/bin and starts the daemon', async () => {
    const { bin, env, setup } = await machine({ binOnPath: true });
    const first = await setup();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`gobby launcher written: ${join(bin, 'gobby')}`);
    expect(first.stdout).toContain('is on your PATH');
    expect(first.stdout).toMatch(/daemon started: pid \d+/);

    // Found through PATH, from any folder: the launcher runs this clone's CLI.
    const status = await run('gobby', ['daemon', 'status', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, port: Number(env.GOBBY_PORT) });

    const again = await setup('--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'unchanged', onPath: true, daemon: expect.stringContaining('already running') });
  });

  it('says how to add the folder to PATH when it is not there', async () => {
    const { bin, setup } = await machine({ binOnPath: false });
    const result = await setup('--no-start');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('daemon');
    expect(result.stdout).toContain(`${bin} is not on your PATH`);
    expect(result.stdout).toContain(`export PATH="${bin}:$PATH"`);
  });

  it('leaves a `gobby` it did not write alone unless forced, and removes only its own', async () => {
    const { bin, setup } = await machine({ binOnPath: true });
    mkdirSync(bin, { recursive: true });
    const theirs = join(bin, 'gobby');
    writeFileSync(theirs, '#!/bin/sh\necho somebody else\n');
    chmodSync(theirs, 0o755);

    const refused = await setup('--no-start', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'GOBBY_ERR_SETUP_NOT_OURS' });
    expect(readFileSync(theirs, 'utf8')).toBe('#!/bin/sh\necho somebody else\n');
    expect((await setup('--remove')).code).toBe(1);
    expect(existsSync(theirs)).toBe(true);

    const forced = await setup('--force', '--no-start');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(theirs, 'utf8')).toContain('gobby launcher');

    const removed = await setup('--remove', '--json');
    expect(JSON.parse(removed.stdout)).toMatchObject({ outcome: 'removed', daemon: null });
    expect(existsSync(theirs)).toBe(false);
  });

  it('works from a launcher folder whose name has shell characters in it', async () => {
    const { home, env, setup } = await machine({ binOnPath: false });
    const odd = join(home, "bin $HOME `x` 'q'");
    const result = await setup('--bin-dir', odd, '--no-start', '--json');
    expect(result.code, result.stderr).toBe(0);
    const version = await run(join(odd, 'gobby'), ['--version'], env);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
