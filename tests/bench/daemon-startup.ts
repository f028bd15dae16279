// Daemon cold start: how long the first session of the day waits when its SessionStart hook
// has to start the daemon. Measured two ways, each on a fresh GOBBY_HOME:
// - the daemon alone: `node <daemon flags> dist/daemon/main.js` spawned, until /api/identity answers
//   (module loading, migrations, the built-in workflows, fastify ready);
// - `gobby daemon start` as a user runs it: the CLI's own start, the spawn, the health check.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-locator.js';
import { createGobby, freePort } from '../support/gobby-process.js';
import { REPO_ROOT } from '../support/claude-cli.js';
import { onInterrupt } from './interrupt.js';
import { metric, summarize, type BenchResult } from './stats.js';

export interface StartupBenchOptions {
  readonly runs: number;
}

export const STARTUP_DEFAULTS: StartupBenchOptions = { runs: 15 };

const DAEMON_MAIN = join(REPO_ROOT, 'dist', 'daemon', 'main.js');
const POLL_MS = 5;
const READY_TIMEOUT_MS = 20_000;

export async function runDaemonStartup(options: StartupBenchOptions = STARTUP_DEFAULTS): Promise<BenchResult> {
  const alone: number[] = [];
  const viaCli: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    alone.push(await timeDaemonAlone());
    viaCli.push(await timeDaemonStartCommand());
  }
  const daemon = summarize(alone);
  const cli = summarize(viaCli);
  return {
    name: 'startup',
    title: 'Daemon cold start',
    metrics: [
      metric('daemon spawn → /api/identity answers, p50', daemon.p50, 'ms'),
      metric('daemon spawn → /api/identity answers, max', daemon.max, 'ms'),
      metric('`gobby daemon start`, p50', cli.p50, 'ms'),
      metric('`gobby daemon start`, max', cli.max, 'ms'),
    ],
    notes: [
      `${options.runs} runs of each, alternating, each on a fresh GOBBY_HOME (migrations and built-in workflows included); the daemon is polled every ${POLL_MS} ms.`,
      'This is what the first session waits for when its SessionStart hook has to start the daemon; later sessions find it running.',
    ],
    details: { daemonMs: alone, daemonStartMs: viaCli },
  };
}

async function timeDaemonAlone(): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'gobby-bench-startup-'));
  const port = await freePort();
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, DAEMON_MAIN], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GOBBY_HOME: home, GOBBY_PORT: String(port) },
    stdio: 'ignore',
  });
  const forget = onInterrupt(() => child.kill('SIGKILL'));
  try {
    const started = performance.now();
    await waitForIdentity(port, () => child.exitCode !== null);
    return performance.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    forget();
    rmSync(home, { recursive: true, force: true });
  }
}

async function timeDaemonStartCommand(): Promise<number> {
  const gobby = await createGobby();
  const forget = onInterrupt(() => gobby.cleanup());
  try {
    const started = performance.now();
    await gobby.start();
    return performance.now() - started;
  } finally {
    await gobby.cleanup();
    forget();
  }
}

async function waitForIdentity(port: number, exited: () => boolean): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (!(await answers(port))) {
    if (exited()) throw new Error('bench: the daemon exited before it answered');
    if (performance.now() > deadline) throw new Error(`bench: the daemon did not answer within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/identity', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}
