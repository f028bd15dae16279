// Finds, checks and starts the one gobby daemon of a GOBBY_HOME, for the SessionStart
// command client and the `gobby daemon` CLI alike. The client imports this at the start
// of every session, so it uses node built-ins and the small hooks/ files only.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { describeError } from './describe-error.js';
import { readDaemonFile, resolveConfiguredPort, resolveGobbyHome } from './daemon-file.js';
import { fetchWithDeadline, loopbackFetch, type FetchLike } from './loopback-fetch.js';

type Env = Record<string, string | undefined>;

/**
 * Node flags the daemon is started with. A small young generation keeps the resident size
 * of a long-lived daemon low under bursts of hook events (V8 would otherwise grow it to
 * 32 MB and keep it), at the cost of more frequent, cheap scavenges.
 */
const DAEMON_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** daemon/main.ts exits with this when another daemon already holds the GOBBY_HOME lock. */
export const DAEMON_EXIT_ALREADY_RUNNING = 3;
/**
 * Sent by the SessionStart command client with its own pid: the daemon checks it against the
 * connection and registers the process that ran the hook (Claude Code) for the session.
 */
export const CLIENT_PID_HEADER = 'x-gobby-client-pid';

// A hung daemon must not eat the SessionStart hook's 15 s budget: request, start, request.
const HEALTH_TIMEOUT_MS = 500;
const HEALTH_POLL_INTERVAL_MS = 100;
/** Lines of the child's stderr quoted when it dies while starting. */
const STARTUP_LOG_TAIL_LINES = 15;

export interface DaemonLocation {
  readonly home: string;
  readonly port: number;
  readonly baseUrl: string;
}

/** What a healthy daemon says about itself on `GET /api/health`. */
export interface DaemonHealth {
  readonly pid: number;
  readonly home: string;
}

export function daemonUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** Where the daemon of `env` answers: the port in daemon.json, else the configured one. */
export function locateDaemon(env: Env): DaemonLocation {
  const home = resolveGobbyHome(env);
  const port = readDaemonFile(home)?.port ?? resolveConfiguredPort(env, home);
  return { home, port, baseUrl: daemonUrl(port) };
}

/** `$GOBBY_HOME/logs/daemon-start.log`: the starting daemon's stderr, so a failed start can say why. */
export function startupLogPath(home: string): string {
  return join(home, 'logs', 'daemon-start.log');
}

/** The daemon's health, or null when nothing, or something that is not gobby, answers in time. */
export async function checkDaemonHealth(port: number, fetchImpl: FetchLike = loopbackFetch): Promise<DaemonHealth | null> {
  const result = await fetchWithDeadline(fetchImpl, `${daemonUrl(port)}/api/health`, { method: 'GET' }, HEALTH_TIMEOUT_MS);
  if (result.kind !== 'response' || result.status !== 200) return null;
  try {
    const body = JSON.parse(result.text) as Record<string, unknown> | null;
    if (body?.['ok'] !== true || body['name'] !== 'gobby') return null;
    const { pid, home } = body;
    return typeof pid === 'number' && typeof home === 'string' ? { pid, home } : null;
  } catch {
    return null;
  }
}

export interface SpawnDaemonOptions {
  readonly daemonMain: string;
  readonly env: Env;
  readonly startupLog: string;
}

/** A started daemon process; `exitCode()` is null while it runs. */
export interface SpawnedDaemon {
  exitCode(): number | null;
}

/** Test seam: how a daemon process is started. A seam that returns nothing is never seen to exit. */
export type SpawnDaemon = (options: SpawnDaemonOptions) => SpawnedDaemon | void | Promise<SpawnedDaemon | void>;

/** Starts `node <daemonMain>` in the background, outliving this process; its stderr goes to `startupLog`. */
function spawnDetachedDaemon({ daemonMain, env, startupLog }: SpawnDaemonOptions): SpawnedDaemon {
  if (!existsSync(daemonMain)) throw new Error(`daemon entry point not found: ${daemonMain} (is gobby built?)`);
  const log = openSync(startupLog, 'w');
  let exited: number | null = null;
  try {
    const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, daemonMain], {
      detached: true,
      stdio: ['ignore', log, log],
      env,
      // Not the caller's cwd: the daemon outlives a session and must not pin its directory.
      cwd: dirname(daemonMain),
    });
    child.on('error', () => undefined); // reported through the health check instead
    child.on('exit', (code) => {
      exited = code ?? 1;
    });
    child.unref();
  } finally {
    closeSync(log);
  }
  return { exitCode: () => exited };
}

/**
 * The caller's environment minus the variables that describe one Claude Code session.
 * The daemon serves every session, and a `claude` it runs later would take
 * CLAUDECODE=1 for a nested session.
 */
function daemonEnvironment(env: Env): Env {
  const sessionScoped = /^(CLAUDECODE|CLAUDE_CODE_.*|CLAUDE_PROJECT_DIR|CLAUDE_ENV_FILE|CLAUDE_PID|CLAUDE_EFFORT)$/;
  return Object.fromEntries(Object.entries(env).filter(([key]) => !sessionScoped.test(key)));
}

export interface EnsureDaemonOptions {
  readonly env: Env;
  /** Absolute path of dist/daemon/main.js. */
  readonly daemonMain: string;
  /** How long a freshly started daemon gets to answer /api/health. */
  readonly startupTimeoutMs: number;
  readonly fetchImpl?: FetchLike;
  readonly spawnDaemon?: SpawnDaemon;
}

export type EnsureDaemonResult =
  | { readonly kind: 'running'; readonly port: number; readonly health: DaemonHealth }
  | { readonly kind: 'started'; readonly port: number; readonly health: DaemonHealth }
  | {
      readonly kind: 'failed';
      /** `already-running`: the lock says another daemon runs, yet it did not answer in time. */
      readonly reason: 'already-running' | 'not-started';
      readonly why: string;
    };

/**
 * The daemon of `env` that answers, on the port in daemon.json or the configured one
 * (daemon.json may be stale), or null when neither answers as gobby.
 */
export async function findRunningDaemon(env: Env, fetchImpl: FetchLike = loopbackFetch): Promise<{ port: number; health: DaemonHealth } | null> {
  const home = resolveGobbyHome(env);
  const ports = new Set([readDaemonFile(home)?.port, resolveConfiguredPort(env, home)]);
  for (const port of ports) {
    if (port === undefined) continue;
    const health = await checkDaemonHealth(port, fetchImpl);
    if (health) return { port, health };
  }
  return null;
}

/**
 * Returns the daemon that answers on one of its candidate ports (daemon.json may be stale),
 * else starts one and waits for its health check. The new daemon writes daemon.json, so the
 * candidates are read again on every poll. When two starts race, the loser's process exits
 * with DAEMON_EXIT_ALREADY_RUNNING and this keeps waiting for the winner.
 */
export async function ensureDaemon(options: EnsureDaemonOptions): Promise<EnsureDaemonResult> {
  const home = resolveGobbyHome(options.env);
  const findHealthy = () => findRunningDaemon(options.env, options.fetchImpl);

  const alreadyUp = await findHealthy();
  if (alreadyUp) return { kind: 'running', ...alreadyUp };

  const startupLog = startupLogPath(home);
  let child: SpawnedDaemon | void;
  try {
    // The daemon makes GOBBY_HOME private (0700) when it creates it; do the same here.
    mkdirSync(home, { recursive: true, mode: 0o700 });
    mkdirSync(dirname(startupLog), { recursive: true });
    child = await (options.spawnDaemon ?? spawnDetachedDaemon)({ daemonMain: options.daemonMain, env: daemonEnvironment(options.env), startupLog });
  } catch (error) {
    return { kind: 'failed', reason: 'not-started', why: `starting it failed: ${describeError(error)}` };
  }

  const deadline = Date.now() + options.startupTimeoutMs;
  for (;;) {
    const up = await findHealthy();
    const exitCode = child ? child.exitCode() : null;
    const lostRace = exitCode === DAEMON_EXIT_ALREADY_RUNNING;
    if (up) return { kind: lostRace ? 'running' : 'started', ...up };
    if (exitCode !== null && !lostRace) {
      return { kind: 'failed', reason: 'not-started', why: readTail(startupLog) || `it exited with code ${exitCode}` };
    }
    if (Date.now() >= deadline) {
      const why = `it did not pass /api/health within ${options.startupTimeoutMs} ms`;
      return { kind: 'failed', reason: lostRace ? 'already-running' : 'not-started', why: readTail(startupLog) || why };
    }
    await sleep(HEALTH_POLL_INTERVAL_MS);
  }
}

function readTail(path: string): string {
  try {
    // The daemon's own lines start with `gobby: the daemon could not start: `; whoever reports
    // them says that already, with its own prefix.
    return readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(-STARTUP_LOG_TAIL_LINES)
      .map((line) => line.replace(/^gobby: (the daemon could not start: )?/, ''))
      .join('\n');
  } catch {
    return '';
  }
}
