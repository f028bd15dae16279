// gobby daemon start | stop | status
import { setTimeout as sleep } from 'node:timers/promises';
import { daemonUrl, ensureDaemon, findRunningDaemon } from '../../hooks/daemon-locator.js';
import { DAEMON_MAIN } from '../package-info.js';
import { EXIT_CODES, GobbyError, gobbyError } from '../../hooks/errors.js';
import { CONTROL_API } from '../contracts/control-api.js';
import { callDaemon, locateDaemon, type DaemonAddress } from './daemon-client.js';
import { refuseInsideClaudeCode } from './human-only.js';
import { printResult, type OutputOptions } from './output.js';
import { isProcessRunning } from './process-alive.js';

type Env = Record<string, string | undefined>;

const STARTUP_TIMEOUT_MS = 15_000;
const DAMAGED_DATABASE_ADVICE =
  'To recover: gobby daemon stop; move the database file aside (with its -wal and -shm files), or put back a backup copy; gobby daemon start. ' +
  "A new, empty database is made at the start: sessions, the project's workflow choice and the audit log start over.";
const STOP_TIMEOUT_MS = 10_000;
/** A check is one kill(0) and one small /proc read. */
const STOP_POLL_INTERVAL_MS = 20;

export async function startDaemon(env: Env, output: OutputOptions): Promise<void> {
  const address = locateDaemon(env);
  const result = await ensureDaemon({ env, daemonMain: DAEMON_MAIN, startupTimeoutMs: STARTUP_TIMEOUT_MS });
  if (result.kind === 'running') {
    const { identity, port } = result;
    printResult(output, { started: false, already_running: true, pid: identity.pid, port, home: identity.home }, () =>
      `gobby daemon is already running (pid ${identity.pid}, http://127.0.0.1:${port}, GOBBY_HOME=${identity.home})`,
    );
    return;
  }
  if (result.kind === 'started') {
    const { identity, port } = result;
    printResult(output, { started: true, pid: identity.pid, port, home: identity.home, log: address.layout.logFile }, () =>
      `gobby daemon started (pid ${identity.pid}, http://127.0.0.1:${port}, GOBBY_HOME=${identity.home})\nlog: ${address.layout.logFile}`,
    );
    return;
  }
  if (result.reason === 'port-taken') {
    // Not "already running": what answers is not this home's daemon, and starting one could not get the port.
    const code = result.conflict.kind === 'other-home' ? 'GOBBY_ERR_HTTP_WRONG_DAEMON' : 'GOBBY_ERR_CLI_NOT_GOBBY';
    throw gobbyError(code, `no daemon was started for GOBBY_HOME=${address.layout.home}: ${result.why}`);
  }
  // already-running: another daemon for this GOBBY_HOME holds the lock (one started at the same time).
  const code = result.reason === 'already-running' ? 'GOBBY_ERR_CLI_ALREADY_RUNNING' : 'GOBBY_ERR_CLI_START_FAILED';
  throw gobbyError(code, `the daemon did not start: ${result.why.trim()}`);
}

export async function stopDaemon(env: Env, output: OutputOptions): Promise<void> {
  refuseInsideClaudeCode(env, 'gobby daemon stop');
  const found = await findRunningDaemon(env);
  if (!found) {
    // Nothing of this GOBBY_HOME answers; another home's daemon or another program on the port is said so (exit 2), as status does.
    await refuseWhatHoldsThePort(env);
    printResult(output, { stopped: false, running: false }, () => `gobby daemon is not running (GOBBY_HOME=${locateDaemon(env).layout.home})`);
    return;
  }
  const running = found.identity;
  await callDaemon(onPort(locateDaemon(env), found.port), CONTROL_API.shutdown);
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (Date.now() < deadline && isProcessRunning(running.pid)) await sleep(STOP_POLL_INTERVAL_MS);
  if (isProcessRunning(running.pid)) {
    throw gobbyError('GOBBY_ERR_CLI_STOP_FAILED', `the daemon (pid ${running.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
  }
  printResult(output, { stopped: true, pid: running.pid }, () => `gobby daemon stopped (pid ${running.pid})`);
}

/** Throws the CLI's error for what answers on the configured port when it is not this home's daemon; returns when nothing answers. */
async function refuseWhatHoldsThePort(env: Env): Promise<void> {
  try {
    await callDaemon(locateDaemon(env), CONTROL_API.daemon);
  } catch (error) {
    if (error instanceof GobbyError && error.code === 'GOBBY_ERR_CLI_DAEMON_UNREACHABLE') return;
    throw error;
  }
}

export async function daemonStatus(env: Env, output: OutputOptions): Promise<void> {
  // A stale daemon.json must not hide a daemon that answers on the configured port.
  const found = await findRunningDaemon(env);
  const address = found ? onPort(locateDaemon(env), found.port) : locateDaemon(env);
  const info = await callDaemon(address, CONTROL_API.daemon);
  const health = info.database_health;
  // A daemon that runs but cannot serve is no success: scripts and the user notice.
  if (!health.ok) process.exitCode = EXIT_CODES.failed;
  printResult(output, { running: true, ...info }, () =>
    [
      `gobby daemon ${info.version} is running${health.ok ? '' : ', but its DATABASE IS DAMAGED: hook events and commands are refused'}`,
      `  pid:             ${info.pid}`,
      `  address:         http://127.0.0.1:${info.port}`,
      `  uptime:          ${formatDuration(info.uptime_seconds)}`,
      `  GOBBY_HOME:      ${info.home}`,
      `  database:        ${info.database} (schema ${info.schema_version})${health.ok ? '' : ` DAMAGED: ${health.problem ?? ''}`}`,
      `  active sessions: ${info.active_sessions}`,
      `  memory (RSS):    ${(info.memory_rss_bytes / 1024 / 1024).toFixed(1)} MB`,
      ...(health.ok ? [] : ['', DAMAGED_DATABASE_ADVICE]),
    ].join('\n'),
  );
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

function onPort(address: DaemonAddress, port: number): DaemonAddress {
  return { ...address, port, baseUrl: daemonUrl(port) };
}
