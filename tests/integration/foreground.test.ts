// `gobby daemon start --foreground` runs the daemon in the terminal, as the daemon always runs:
// with DAEMON_NODE_FLAGS (its young generation, --expose-gc, one scavenger thread). A signal to the
// command stops the daemon cleanly and the command exits with its code.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-locator.js';
import { freePort, GOBBY_CLI } from '../support/gobby-process.js';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('gobby daemon start --foreground', () => {
  it.skipIf(process.platform !== 'linux')('runs the daemon with its node flags, logs to the terminal, and stops cleanly on SIGTERM', async () => {
    home = mkdtempSync(join(tmpdir(), 'gobby-foreground-'));
    const port = await freePort();
    const command = spawn(process.execPath, [GOBBY_CLI, 'daemon', 'start', '--foreground'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GOBBY_HOME: home, GOBBY_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    command.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => command.once('exit', (code) => resolve(code)));

    const daemonFile = join(home, 'daemon.json');
    const pid = await until('daemon.json', () => (existsSync(daemonFile) ? (JSON.parse(readFileSync(daemonFile, 'utf8')) as { pid: number }).pid : undefined));
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    for (const flag of DAEMON_NODE_FLAGS) expect(argv).toContain(flag);
    await until('the log line that it listens', () => (output.includes('daemon listening on 127.0.0.1') ? true : undefined));

    command.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('daemon stopping');
    expect(existsSync(daemonFile)).toBe(false);
  }, 30_000);
});
