// gobby daemon start | stop | status
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { daemonEnvironment } from '../../hooks/client.js';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-file.js';
import { loopbackFetch } from '../../hooks/loopback-fetch.js';
import { DAEMON_MAIN } from '../package-info.js';
import { gobbyError } from '../../hooks/errors.js';
import { CONTROL_API } from '../contracts/control-api.js';
import { callDaemon, locateDaemon, type DaemonAddress } from './daemon-client.js';
import { printResult, type OutputOptions } from './output.js';

type Env = Record<string, string | undefined>;

const STARTUP_TIMEOUT_MS = 15_000;
/** daemon/main.ts exits with this when another daemon holds the GOBBY_HOME lock. */
const EXIT_ALREADY_RUNNING = 3;
const STOP_TIMEOUT_MS = 10_000;

async function healthOf(address: DaemonAddress): Promise<{ pid: number; home: string } | null> {
  try {
    const response = await loopbackFetch(`${address.baseUrl}/api/health`, { method: 'GET', signal: AbortSignal.timeout(1000) });
    if (response.status !== 200) return null;
    const body = JSON.parse(await response.text()) as { name?: string; pid: number; home: string };
    return body.name === 'gobby' ? body : null;
  } catch {
    return null;
  }
}

export async function startDaemon(env: Env, output: OutputOptions): Promise<void> {
  const address = locateDaemon(env);
  const running = await healthOf(address);
  if (running) {
    printResult(output, { started: false, already_running: true, pid: running.pid, port: address.port, home: running.home }, () =>
      `gobby daemon is already running (pid ${running.pid}, http://127.0.0.1:${address.port}, GOBBY_HOME=${running.home})`,
    );
    return;
  }
  mkdirSync(address.layout.logDirectory, { recursive: true });
  // The child's own stderr goes to a file so that a daemon that dies while starting
  // (port in use, bad config) can say why.
  const startupLog = openSync(address.layout.startupLog, 'w');
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, DAEMON_MAIN], {
    detached: true,
    stdio: ['ignore', startupLog, startupLog],
    env: daemonEnvironment(env) as NodeJS.ProcessEnv,
  });
  closeSync(startupLog);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  child.unref();

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  const fresh = locateDaemon(env);
  while (Date.now() < deadline) {
    const health = await healthOf(fresh);
    if (health) {
      printResult(output, { started: true, pid: health.pid, port: fresh.port, home: health.home, log: address.layout.logFile }, () =>
        `gobby daemon started (pid ${health.pid}, http://127.0.0.1:${fresh.port}, GOBBY_HOME=${health.home})\nlog: ${address.layout.logFile}`,
      );
      return;
    }
    if (exited !== null) break;
    await sleep(100);
  }
  const why = readTail(address.layout.startupLog) || `no answer within ${STARTUP_TIMEOUT_MS / 1000} s`;
  // Exit 3: another daemon for this GOBBY_HOME holds the lock (one started at the same time).
  const code = exited === EXIT_ALREADY_RUNNING ? 'GOBBY_ERR_CLI_ALREADY_RUNNING' : 'GOBBY_ERR_CLI_START_FAILED';
  throw gobbyError(code, `the daemon did not start: ${why.trim()}`);
}

export async function stopDaemon(env: Env, output: OutputOptions): Promise<void> {
  const address = locateDaemon(env);
  const running = await healthOf(address);
  if (!running) {
    printResult(output, { stopped: false, running: false }, () => 'gobby daemon is not running');
    return;
  }
  await callDaemon(address, CONTROL_API.shutdown);
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (Date.now() < deadline && isAlive(running.pid)) await sleep(100);
  if (isAlive(running.pid)) {
    throw gobbyError('GOBBY_ERR_CLI_STOP_FAILED', `the daemon (pid ${running.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
  }
  printResult(output, { stopped: true, pid: running.pid }, () => `gobby daemon stopped (pid ${running.pid})`);
}

export async function daemonStatus(env: Env, output: OutputOptions): Promise<void> {
  const address = locateDaemon(env);
  const info = await callDaemon(address, CONTROL_API.daemon);
  printResult(output, { running: true, ...info }, () =>
    [
      `gobby daemon ${info.version} is running`,
      `  pid:             ${info.pid}`,
      `  address:         http://127.0.0.1:${info.port}`,
      `  uptime:          ${formatDuration(info.uptime_seconds)}`,
      `  GOBBY_HOME:      ${info.home}`,
      `  database:        ${info.database} (schema ${info.schema_version})`,
      `  active sessions: ${info.active_sessions}`,
      `  memory (RSS):    ${(info.memory_rss_bytes / 1024 / 1024).toFixed(1)} MB`,
    ].join('\n'),
  );
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
