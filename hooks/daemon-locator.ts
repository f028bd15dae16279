// Finds, checks and starts the one gobby daemon of a GOBBY_HOME, for the SessionStart
// command client and the `gobby daemon` CLI alike. The client imports this at the start
// of every session, so it uses node built-ins and the small hooks/ files only.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { describeError, withoutGobbyPrefix } from './describe-error.js';
import { readDaemonFile, resolveConfiguredPort, resolveGobbyHome } from './daemon-file.js';
import { fetchWithDeadline, loopbackFetch, type FetchLike } from './loopback-fetch.js';

type Env = Record<string, string | undefined>;

/**
 * Node flags the daemon is started with. A small young generation keeps the resident size
 * of a long-lived daemon low under bursts of hook events (V8 would otherwise grow it to
 * 32 MB and keep it): 110 MB after the benchmark's load, against 133 MB with 8 MB semi-spaces.
 * The price is paid by commands above about 16 KB, whose parse tree outgrows it and is copied
 * (a 64 KB command takes 16 ms instead of 4.5; docs/benchmarks.md). --expose-gc lets the daemon
 * empty it while no event comes (daemon/idle-collector.ts), so that scavenges seldom land
 * inside a hook request. --no-parallel-scavenge: a young collection of 4 MB gains nothing from a
 * helper thread on the two shared cores a developer's machine gives Claude Code, its tools and the
 * daemon; with one, the work it leaves behind ran during the next request (a 4 KB script analysed
 * just after an idle collection took 0.22 ms instead of 0.19; docs/benchmarks.md).
 */
export const DAEMON_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--expose-gc', '--no-parallel-scavenge'];

/** daemon/main.ts exits with this when another daemon already holds the GOBBY_HOME lock. */
export const DAEMON_EXIT_ALREADY_RUNNING = 3;
/**
 * Sent by the SessionStart command client with its own pid: the daemon checks it against the
 * connection and registers the process that ran the hook (Claude Code) for the session.
 */
export const CLIENT_PID_HEADER = 'x-gobby-client-pid';

/**
 * Sent by the CLI and the hook clients with their resolved GOBBY_HOME: a daemon of another
 * home refuses the request (409 GOBBY_ERR_HTTP_WRONG_DAEMON) instead of serving it.
 */
export const GOBBY_HOME_HEADER = 'x-gobby-home';
/** Every answer of a gobby daemon carries this header with its version: how gobby is told from another program. */
export const GOBBY_VERSION_HEADER = 'x-gobby-version';
/** `GET /api/identity`: who answers on the port. No token, no secrets. */
export const IDENTITY_PATH = '/api/identity';

// A hung daemon must not eat the SessionStart hook's 15 s budget: request, start, request.
const IDENTITY_TIMEOUT_MS = 500;
/** How often a starting daemon is asked: a refused connection costs well under a millisecond, and the session start waits up to one interval past the daemon's readiness. */
const IDENTITY_POLL_INTERVAL_MS = 25;
/** Lines of the child's stderr quoted when it dies while starting. */
const STARTUP_LOG_TAIL_LINES = 15;

export interface DaemonLocation {
  readonly home: string;
  readonly port: number;
  readonly baseUrl: string;
}

/** What a gobby daemon says about itself on `GET /api/identity` (daemon/contracts/daemon-answers.ts). */
export interface DaemonIdentity {
  readonly name: 'gobby';
  readonly version: string;
  /** The daemon's GOBBY_HOME, resolved. */
  readonly home: string;
  readonly pid: number;
  /** Null only while it does not listen yet. */
  readonly port: number | null;
  readonly startedAt: string;
}

/**
 * Who answers on a port, as far as a client of `home` is concerned:
 * - `ours`: the gobby daemon of this GOBBY_HOME;
 * - `other-home`: a gobby daemon of another GOBBY_HOME;
 * - `other-gobby`: a gobby daemon that does not say who it is (older than this client);
 * - `not-gobby`: another program (its answer is never quoted: it may be a whole HTML page);
 * - `nothing`: nothing answers in time.
 */
export type DaemonProbe =
  | { readonly kind: 'ours'; readonly identity: DaemonIdentity }
  | { readonly kind: 'other-home'; readonly identity: DaemonIdentity }
  | { readonly kind: 'other-gobby'; readonly version: string }
  | { readonly kind: 'not-gobby'; readonly status: number; readonly contentType: string }
  | { readonly kind: 'nothing'; readonly why: string };

/** A probe that found something on the port that this client must not use. */
export type PortConflict = Extract<DaemonProbe, { kind: 'other-home' | 'other-gobby' | 'not-gobby' }>;

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

/** `$GOBBY_HOME/logs/daemon.log`: the running daemon's log (daemon/home-layout.ts names the same file). */
export function daemonLogPath(home: string): string {
  return join(home, 'logs', 'daemon.log');
}

/**
 * Whether two spellings name the same GOBBY_HOME: equal once resolved, or once symlinks are
 * followed (a temporary folder behind /tmp → /private/tmp is still the same home).
 */
export function sameGobbyHome(a: string, b: string): boolean {
  const left = resolve(a);
  const right = resolve(b);
  return left === right || realPath(left) === realPath(right);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Asks `GET /api/identity` on `port` who answers, and judges the answer for a client of `home`. */
export async function probeDaemon(port: number, home: string, fetchImpl: FetchLike = loopbackFetch): Promise<DaemonProbe> {
  const result = await fetchWithDeadline(fetchImpl, `${daemonUrl(port)}${IDENTITY_PATH}`, { method: 'GET' }, IDENTITY_TIMEOUT_MS);
  if (result.kind === 'error') return { kind: 'nothing', why: result.why };
  if (result.kind === 'timeout') return { kind: 'nothing', why: `no answer within ${result.ms} ms` };
  const version = result.header(GOBBY_VERSION_HEADER);
  if (version === undefined) {
    return { kind: 'not-gobby', status: result.status, contentType: result.header('content-type')?.split(';')[0]?.trim() || 'no content-type' };
  }
  const identity = result.status === 200 ? parseIdentity(result.text) : null;
  if (!identity) return { kind: 'other-gobby', version };
  return sameGobbyHome(identity.home, home) ? { kind: 'ours', identity } : { kind: 'other-home', identity };
}

function parseIdentity(text: string): DaemonIdentity | null {
  try {
    const body = JSON.parse(text) as Record<string, unknown> | null;
    if (body?.['name'] !== 'gobby') return null;
    const { version, home, pid, port, startedAt } = body;
    if (typeof version !== 'string' || typeof home !== 'string' || typeof pid !== 'number' || typeof startedAt !== 'string') return null;
    if (typeof port !== 'number' && port !== null) return null;
    return { name: 'gobby', version, home, pid, port, startedAt };
  } catch {
    return null;
  }
}

/** Where a GOBBY_HOME's port is set, for messages that tell the user to change it. */
function portSettings(home: string): string {
  return `GOBBY_PORT, or "port" in ${join(home, 'config.json')}`;
}

/**
 * What a client of `home` tells its user when a gobby daemon of another home holds the port:
 * both homes, the port, and the fix. The daemon answers with the same words (409
 * GOBBY_ERR_HTTP_WRONG_DAEMON), so the CLI, the hook client and the daemon agree.
 */
export function describeWrongHome(port: number, daemonHome: string, clientHome: string, daemonPid?: number): string {
  const holder = `the gobby daemon of GOBBY_HOME=${daemonHome}${daemonPid === undefined ? '' : ` (pid ${daemonPid})`}`;
  return (
    `port 127.0.0.1:${port} is held by ${holder}, not by the daemon of GOBBY_HOME=${clientHome}. ` +
    `Each GOBBY_HOME needs its own port: give ${clientHome} another one (${portSettings(clientHome)}), ` +
    `or use GOBBY_HOME=${daemonHome}`
  );
}

/** The message for any port conflict a probe found. Never quotes what the other program answered. */
export function describePortConflict(conflict: PortConflict, port: number, home: string): string {
  switch (conflict.kind) {
    case 'other-home':
      return describeWrongHome(port, conflict.identity.home, home, conflict.identity.pid);
    case 'other-gobby':
      return (
        `port 127.0.0.1:${port} is held by a gobby daemon (version ${conflict.version}) that does not say which GOBBY_HOME it serves: ` +
        'it is older than this gobby. Stop it (with the gobby it was started with: gobby daemon stop), ' +
        `or give GOBBY_HOME=${home} another port (${portSettings(home)})`
      );
    case 'not-gobby':
      return (
        `port 127.0.0.1:${port} is held by another program, not gobby (it answered HTTP ${conflict.status}, ${conflict.contentType}). ` +
        `Stop that program, or give gobby another port: ${portSettings(home)}`
      );
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
 * The caller's environment minus the variables that describe one Claude Code session, with
 * GOBBY_HOME set to the home this client resolved. The daemon serves every session, and a
 * `claude` it runs later would take CLAUDECODE=1 for a nested session.
 */
function daemonEnvironment(env: Env): Env {
  const sessionScoped = /^(CLAUDECODE|CLAUDE_CODE_.*|CLAUDE_PROJECT_DIR|CLAUDE_ENV_FILE|CLAUDE_PID|CLAUDE_EFFORT)$/;
  // The home this client resolved, pinned: a relative GOBBY_HOME would be read again from the
  // daemon's own working directory, another folder.
  return { ...Object.fromEntries(Object.entries(env).filter(([key]) => !sessionScoped.test(key))), GOBBY_HOME: resolveGobbyHome(env) };
}

export interface EnsureDaemonOptions {
  readonly env: Env;
  /** Absolute path of dist/daemon/main.js. */
  readonly daemonMain: string;
  /** How long a freshly started daemon gets to answer /api/identity. */
  readonly startupTimeoutMs: number;
  readonly fetchImpl?: FetchLike;
  readonly spawnDaemon?: SpawnDaemon;
}

/** The daemon of a GOBBY_HOME that answers, and where. */
export interface RunningDaemon {
  readonly port: number;
  readonly identity: DaemonIdentity;
}

export type EnsureDaemonResult =
  | ({ readonly kind: 'running' } & RunningDaemon)
  | ({ readonly kind: 'started' } & RunningDaemon)
  | {
      readonly kind: 'failed';
      /** `already-running`: the lock says another daemon runs, yet it did not answer in time. */
      readonly reason: 'already-running' | 'not-started';
      readonly why: string;
    }
  | {
      readonly kind: 'failed';
      /** Something this GOBBY_HOME must not use holds its port; nothing was started. */
      readonly reason: 'port-taken';
      readonly port: number;
      readonly conflict: PortConflict;
      readonly why: string;
    };

interface PortSurvey {
  readonly ours: RunningDaemon | null;
  /** What holds the configured port, when it is not this home's daemon. */
  readonly conflict: PortConflict | null;
}

/**
 * Asks the port in daemon.json (it may be stale) and the configured one who answers: this
 * home's daemon on either is the one to use; anything else on the configured port is a
 * conflict a new daemon could not get past.
 */
async function surveyPorts(env: Env, fetchImpl: FetchLike = loopbackFetch): Promise<PortSurvey & { readonly configuredPort: number }> {
  const home = resolveGobbyHome(env);
  const configuredPort = resolveConfiguredPort(env, home);
  let conflict: PortConflict | null = null;
  for (const port of new Set([readDaemonFile(home)?.port ?? configuredPort, configuredPort])) {
    const probe = await probeDaemon(port, home, fetchImpl);
    if (probe.kind === 'ours') return { ours: { port, identity: probe.identity }, conflict: null, configuredPort };
    if (port === configuredPort && probe.kind !== 'nothing') conflict = probe;
  }
  return { ours: null, conflict, configuredPort };
}

/**
 * The daemon of `env`'s GOBBY_HOME that answers, on the port in daemon.json or the configured
 * one (daemon.json may be stale), or null when neither answers as that home's gobby.
 */
export async function findRunningDaemon(env: Env, fetchImpl: FetchLike = loopbackFetch): Promise<RunningDaemon | null> {
  return (await surveyPorts(env, fetchImpl)).ours;
}

/**
 * Returns the daemon that answers on one of its candidate ports (daemon.json may be stale),
 * else starts one and waits until it says who it is. Nothing is started when another
 * program, or the daemon of another GOBBY_HOME, holds the configured port: the new daemon
 * could not listen there, and the result says who holds it. The new daemon writes
 * daemon.json, so the candidates are read again on every poll. When two starts race, the
 * loser's process exits with DAEMON_EXIT_ALREADY_RUNNING and this keeps waiting for the winner.
 */
export async function ensureDaemon(options: EnsureDaemonOptions): Promise<EnsureDaemonResult> {
  const home = resolveGobbyHome(options.env);
  const findOurs = () => findRunningDaemon(options.env, options.fetchImpl);

  const survey = await surveyPorts(options.env, options.fetchImpl);
  if (survey.ours) return { kind: 'running', ...survey.ours };
  if (survey.conflict) {
    const port = survey.configuredPort;
    return { kind: 'failed', reason: 'port-taken', port, conflict: survey.conflict, why: describePortConflict(survey.conflict, port, home) };
  }

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
    const up = await findOurs();
    const exitCode = child ? child.exitCode() : null;
    const lostRace = exitCode === DAEMON_EXIT_ALREADY_RUNNING;
    if (up) return { kind: lostRace ? 'running' : 'started', ...up };
    if (exitCode !== null && !lostRace) {
      return { kind: 'failed', reason: 'not-started', why: readTail(startupLog) || `it exited with code ${exitCode}` };
    }
    if (Date.now() >= deadline) {
      const why = `it did not answer ${IDENTITY_PATH} within ${options.startupTimeoutMs} ms`;
      return { kind: 'failed', reason: lostRace ? 'already-running' : 'not-started', why: readTail(startupLog) || why };
    }
    await sleep(IDENTITY_POLL_INTERVAL_MS);
  }
}

/**
 * The end of the starting daemon's stderr, to be quoted after "the daemon did not start: ".
 * Its own lines say `gobby: the daemon could not start: …`, which that sentence says
 * already; a stack trace's frames are left to the log file.
 */
function readTail(path: string): string {
  try {
    return readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .filter((line) => !/^\s+at /.test(line))
      .slice(-STARTUP_LOG_TAIL_LINES)
      .map((line) => withoutGobbyPrefix(line).replace(/^the daemon could not start: /, ''))
      .join('\n');
  } catch {
    return '';
  }
}
