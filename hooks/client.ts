// The command client Claude Code runs for hook events that cannot use an http
// hook (SessionStart: Claude Code never runs http hooks there). It forwards the
// payload to the daemon, starting the daemon first when it is not running.
//
// Usage: node dist/hooks/client.js <EventName> [--lenient]
//
// It runs at the start of every session, so it imports node builtins and
// daemon-file.ts only (no zod, no fastify) and bounds every network wait.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { DAEMON_NODE_FLAGS, readDaemonFile, resolveConfiguredPort, resolveGobbyHome } from './daemon-file.js';
import { loopbackFetch, type FetchLike, type FetchLikeInit } from './loopback-fetch.js';

type Env = Record<string, string | undefined>;

/** Events where a strict client blocks (exit 2) when the daemon cannot answer. */
export const GUARD_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'UserPromptSubmit', 'PermissionRequest']);

export const CLIENT_USAGE = 'usage: node dist/hooks/client.js <EventName> [--lenient]';

export interface ClientResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export type SpawnDaemon = (options: { daemonMain: string; env: Env }) => void | Promise<void>;

export interface RunClientOptions {
  event: string;
  lenient: boolean;
  /** The hook payload exactly as Claude Code wrote it to stdin. */
  stdin: string;
  env: Env;
  /** Absolute path of dist/daemon/main.js. */
  daemonMain: string;
  fetchImpl?: FetchLike;
  spawnDaemon?: SpawnDaemon;
  /** Per request. The SessionStart hook allows 15 s in all: request + startup + request stays below. */
  requestTimeoutMs?: number;
  /** How long a freshly started daemon gets to answer /api/health. */
  startupTimeoutMs?: number;
}

type Attempt =
  | { kind: 'answered'; body: string }
  | { kind: 'unreachable'; why: string }
  | { kind: 'failed'; problem: string; detail?: string };

const HEALTH_TIMEOUT_MS = 500;
const HEALTH_POLL_INTERVAL_MS = 100;

export async function runClient(options: RunClientOptions): Promise<ClientResult> {
  const { event, lenient } = options;
  if (!/^[A-Za-z]+$/.test(event)) {
    return { stdout: '', stderr: `gobby: missing or invalid hook event name ${JSON.stringify(event)}\n${CLIENT_USAGE}\n`, exitCode: 1 };
  }
  const home = resolveGobbyHome(options.env);
  let port = readDaemonFile(home)?.port ?? resolveConfiguredPort(options.env, home);
  try {
    let attempt = await postHook(options, port);
    if (attempt.kind === 'unreachable') {
      const started = await startDaemon(options, home);
      if (started.kind === 'failed') {
        attempt = { kind: 'failed', problem: `is not reachable (${attempt.why}; ${started.why})` };
      } else {
        port = started.port;
        attempt = await postHook(options, port);
      }
    }
    switch (attempt.kind) {
      case 'answered':
        return { stdout: attempt.body, stderr: '', exitCode: 0 };
      case 'unreachable':
        return applyFailurePolicy(event, lenient, port, home, `is not reachable (${attempt.why})`);
      case 'failed':
        return applyFailurePolicy(event, lenient, port, home, attempt.problem, attempt.detail);
    }
  } catch (error) {
    // A bug here must not decide enforcement by accident: fall back to the declared policy.
    return applyFailurePolicy(event, lenient, port, home, `could not be asked (client error: ${describeError(error)})`);
  }
}

/** POSTs the raw payload. A 2xx JSON (or empty) answer is the only success. */
async function postHook(options: RunClientOptions, port: number): Promise<Attempt> {
  const url = `${daemonUrl(port)}/hooks/${options.event}`;
  const result = await request(options.fetchImpl ?? loopbackFetch, url, {
    method: 'POST',
    // The daemon checks this pid against the connection, then takes the process that ran this
    // hook (Claude Code) as the one every later hook event of the session must come from.
    headers: { 'content-type': 'application/json', 'x-gobby-hook': '1', 'x-gobby-client-pid': String(process.pid) },
    body: options.stdin,
  }, options.requestTimeoutMs ?? 3000);
  if (result.kind === 'timeout') return { kind: 'failed', problem: `did not answer within ${result.ms} ms` };
  if (result.kind === 'error') return { kind: 'unreachable', why: result.why };
  if (result.status < 200 || result.status > 299) {
    return { kind: 'failed', problem: `answered HTTP ${result.status}`, detail: truncate(result.text.trim(), 2000) };
  }
  if (result.text.trim() === '') return { kind: 'answered', body: '' };
  try {
    JSON.parse(result.text);
  } catch {
    // Non-JSON stdout would reach the model as plain context; treat it as a failure instead.
    return { kind: 'failed', problem: 'answered with a body that is not JSON', detail: truncate(result.text.trim(), 2000) };
  }
  return { kind: 'answered', body: result.text };
}

type StartResult = { kind: 'healthy'; port: number } | { kind: 'failed'; why: string };

/**
 * Finds a daemon that is up on another candidate port (daemon.json may be
 * stale), else starts one and waits for its health check. The new daemon
 * writes daemon.json, so candidates are re-read on every poll.
 */
async function startDaemon(options: RunClientOptions, home: string): Promise<StartResult> {
  const fetchImpl = options.fetchImpl ?? loopbackFetch;
  const candidatePorts = (): number[] => {
    const ports = [readDaemonFile(home)?.port, resolveConfiguredPort(options.env, home)];
    return [...new Set(ports.filter((p): p is number => p !== undefined))];
  };
  const findHealthy = async (): Promise<number | null> => {
    for (const port of candidatePorts()) if (await isHealthy(fetchImpl, port)) return port;
    return null;
  };

  const alreadyUp = await findHealthy();
  if (alreadyUp !== null) return { kind: 'healthy', port: alreadyUp };
  try {
    await (options.spawnDaemon ?? spawnDetachedDaemon)({ daemonMain: options.daemonMain, env: daemonEnvironment(options.env) });
  } catch (error) {
    return { kind: 'failed', why: `starting it failed: ${describeError(error)}` };
  }
  const startupMs = options.startupTimeoutMs ?? 5000;
  const deadline = Date.now() + startupMs;
  for (;;) {
    const port = await findHealthy();
    if (port !== null) return { kind: 'healthy', port };
    if (Date.now() >= deadline) return { kind: 'failed', why: `started it, but it did not pass /api/health within ${startupMs} ms` };
    await sleep(HEALTH_POLL_INTERVAL_MS);
  }
}

async function isHealthy(fetchImpl: FetchLike, port: number): Promise<boolean> {
  const result = await request(fetchImpl, `${daemonUrl(port)}/api/health`, { method: 'GET' }, HEALTH_TIMEOUT_MS);
  if (result.kind !== 'response' || result.status !== 200) return false;
  try {
    const body: unknown = JSON.parse(result.text);
    return typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

/** Starts `node <daemonMain>` in the background, outliving this short-lived client. */
export function spawnDetachedDaemon({ daemonMain, env }: { daemonMain: string; env: Env }): void {
  if (!existsSync(daemonMain)) throw new Error(`daemon entry point not found: ${daemonMain} (is gobby built?)`);
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, daemonMain], {
    detached: true,
    stdio: 'ignore',
    env,
    // Not the session's cwd: the daemon outlives the session and must not pin its directory.
    cwd: dirname(daemonMain),
  });
  child.on('error', () => undefined); // reported through the health check instead
  child.unref();
}

/**
 * The hook's environment minus the variables that describe this one Claude
 * Code session. The daemon serves every session, and a `claude` it runs later
 * would take CLAUDECODE=1 for a nested session.
 */
export function daemonEnvironment(env: Env): Env {
  const sessionScoped = /^(CLAUDECODE|CLAUDE_CODE_.*|CLAUDE_PROJECT_DIR|CLAUDE_ENV_FILE|CLAUDE_PID|CLAUDE_EFFORT)$/;
  return Object.fromEntries(Object.entries(env).filter(([key]) => !sessionScoped.test(key)));
}

function applyFailurePolicy(
  event: string,
  lenient: boolean,
  port: number,
  home: string,
  problem: string,
  detail?: string,
): ClientResult {
  const unreachable = problem.startsWith('is not reachable');
  const hint = unreachable ? 'Start it with: gobby daemon start' : `See the daemon log under ${home}`;
  const what = `gobby: the daemon at ${daemonUrl(port)} ${problem}`;
  const detailLine = detail ? `gobby: daemon said: ${detail}\n` : '';
  if (lenient) {
    return { stdout: '', stderr: `${detailLine}${what}; continuing without workflow enforcement (lenient mode).\n`, exitCode: 0 };
  }
  if (GUARD_EVENTS.has(event)) {
    // Exit 2 blocks the action; Claude Code shows stderr to the model (PreToolUse) or the user.
    return { stdout: '', stderr: `${detailLine}${what}; blocking this ${event} because gobby runs in strict mode. ${hint}\n`, exitCode: 2 };
  }
  // Events that cannot block (SessionStart) get a visible warning instead of silence.
  const scope = event === 'SessionStart' ? 'session start' : `${event} event`;
  const systemMessage = `${what}; workflow enforcement is OFF for this ${scope}. ${hint}`;
  return { stdout: `${JSON.stringify({ systemMessage })}\n`, stderr: `${detailLine}${what}\n`, exitCode: 0 };
}

type RequestResult =
  | { kind: 'response'; status: number; text: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'error'; why: string };

/** A request with a deadline that also covers reading the body. */
async function request(fetchImpl: FetchLike, url: string, init: FetchLikeInit, ms: number): Promise<RequestResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { kind: 'response', status: response.status, text };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout', ms };
    return { kind: 'error', why: describeError(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** fetch (undici) hides the useful part ("connect ECONNREFUSED 127.0.0.1:7377") in `cause`. */
function describeError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message) return cause.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

function daemonUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------
// Entry point

/** dist/hooks/client.js → dist/daemon/main.js */
export function defaultDaemonMain(): string {
  return fileURLToPath(new URL('../daemon/main.js', import.meta.url));
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => (text ? stream.write(text, () => resolve()) : resolve()));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const result = await runClient({
    event: args.find((arg) => !arg.startsWith('--')) ?? '',
    lenient: args.includes('--lenient'),
    stdin: await readStdin(),
    env: process.env,
    daemonMain: defaultDaemonMain(),
  });
  await write(process.stdout, result.stdout);
  await write(process.stderr, result.stderr);
  // Exit now rather than wait for idle keep-alive sockets.
  process.exit(result.exitCode);
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) void main();
