// The command client Claude Code runs for hook events that cannot use an http
// hook (SessionStart: Claude Code never runs http hooks there). It forwards the
// payload to the daemon, starting the daemon first when it is not running.
//
// Usage: node dist/hooks/client.js <EventName> [--port N] [--lenient]
//        gobby hook <EventName> [--port N] [--lenient]   (the same, through the CLI)
//
// It runs at the start of every session, so it imports node built-ins and the small
// hooks/ modules only (no zod, no fastify), and bounds every network wait.
import { realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describeError } from './describe-error.js';
import { CLIENT_PID_HEADER, daemonUrl, ensureDaemon, locateDaemon, type SpawnDaemon } from './daemon-locator.js';
import { fetchWithDeadline, loopbackFetch, type FetchLike } from './loopback-fetch.js';
import { truncate } from './truncate.js';

type Env = Record<string, string | undefined>;

/** Events where a strict client blocks (exit 2) when the daemon cannot answer. */
const GUARD_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'UserPromptSubmit', 'PermissionRequest']);

const CLIENT_USAGE = 'usage: gobby hook <EventName> [--port N] [--lenient]';

export interface ClientResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

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

/** Characters of a daemon's error body quoted back to the user. */
const DETAIL_LIMIT = 2000;

export async function runClient(options: RunClientOptions): Promise<ClientResult> {
  const { event, lenient } = options;
  if (!/^[A-Za-z]+$/.test(event)) {
    return { stdout: '', stderr: `gobby: missing or invalid hook event name ${JSON.stringify(event)}\n${CLIENT_USAGE}\n`, exitCode: 1 };
  }
  const located = locateDaemon(options.env);
  const { home } = located;
  let { port } = located;
  try {
    let attempt = await postHook(options, port);
    if (attempt.kind === 'unreachable') {
      const started = await ensureDaemon({
        env: options.env,
        daemonMain: options.daemonMain,
        startupTimeoutMs: options.startupTimeoutMs ?? 5000,
        ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
        ...(options.spawnDaemon ? { spawnDaemon: options.spawnDaemon } : {}),
      });
      if (started.kind === 'failed') {
        // One line: it ends up in a systemMessage, and the log holds the rest.
        const why = truncate((started.why.split('\n')[0] ?? '').replace(/^gobby: /, ''), 500);
        attempt = { kind: 'failed', problem: `is not reachable (${attempt.why}; could not start it: ${why})` };
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
  const result = await fetchWithDeadline(options.fetchImpl ?? loopbackFetch, url, {
    method: 'POST',
    // The daemon checks this pid against the connection, then takes the process that ran this
    // hook (Claude Code) as the one every later hook event of the session must come from.
    headers: { 'content-type': 'application/json', 'x-gobby-hook': '1', [CLIENT_PID_HEADER]: String(process.pid) },
    body: options.stdin,
  }, options.requestTimeoutMs ?? 3000);
  if (result.kind === 'timeout') return { kind: 'failed', problem: `did not answer within ${result.ms} ms` };
  if (result.kind === 'error') return { kind: 'unreachable', why: result.why };
  if (result.status < 200 || result.status > 299) {
    return { kind: 'failed', problem: `answered HTTP ${result.status}`, detail: truncate(result.text.trim(), DETAIL_LIMIT) };
  }
  if (result.text.trim() === '') return { kind: 'answered', body: '' };
  try {
    JSON.parse(result.text);
  } catch {
    // Non-JSON stdout would reach the model as plain context; treat it as a failure instead.
    return { kind: 'failed', problem: 'answered with a body that is not JSON', detail: truncate(result.text.trim(), DETAIL_LIMIT) };
  }
  return { kind: 'answered', body: result.text };
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

// ---------------------------------------------------------------------------
// Entry point

/** dist/hooks/client.js → dist/daemon/main.js */
function defaultDaemonMain(): string {
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

/**
 * The whole client as a process: reads the payload from stdin, answers on stdout/stderr and
 * exits. `node dist/hooks/client.js <EventName>` and `gobby hook <EventName>` both end here.
 * `--port N` names the port the hooks were installed with (GOBBY_PORT for this run), so a
 * daemon the client starts listens where the http hooks post.
 */
// Imported dynamically by daemon/cli/main.ts, which the unused-exports check does not see.
// ts-unused-exports:disable-next-line
export async function runClientProcess(args: readonly string[], daemonMain: string): Promise<never> {
  const portAt = args.indexOf('--port');
  const port = portAt === -1 ? undefined : args[portAt + 1];
  const positional = args.filter((arg, i) => !arg.startsWith('--') && (portAt === -1 || i !== portAt + 1));
  if (port !== undefined && !/^\d{1,5}$/.test(port)) {
    await write(process.stderr, `gobby: --port needs a port number, got ${JSON.stringify(port)}\n${CLIENT_USAGE}\n`);
    process.exit(1);
  }
  const result = await runClient({
    event: positional[0] ?? '',
    lenient: args.includes('--lenient'),
    stdin: await readStdin(),
    env: port === undefined ? process.env : { ...process.env, GOBBY_PORT: port },
    daemonMain,
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

if (isEntryPoint()) void runClientProcess(process.argv.slice(2), defaultDaemonMain());
