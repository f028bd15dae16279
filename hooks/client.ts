// The command client Claude Code runs for hook events that cannot use an http
// hook (SessionStart: Claude Code never runs http hooks there). It forwards the
// payload to the daemon, starting the daemon first when it is not running.
//
// Usage: node dist/hooks/client.js <EventName> [--port N] [--lenient]
//        gobby hook <EventName> [--port N] [--lenient]   (the same, through the CLI)
//
// It runs at the start of every session, so it imports node built-ins and the small
// hooks/ modules only (no zod, no fastify), and bounds every network wait.
import { realpathSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { exitQuietlyOnBrokenPipe } from './broken-pipe.js';
import { describeError, gobbyMessage, withoutGobbyPrefix } from './describe-error.js';
import {
  CLIENT_PID_HEADER,
  daemonLogPath,
  daemonUrl,
  describePortConflict,
  ensureDaemon,
  GOBBY_HOME_HEADER,
  GOBBY_VERSION_HEADER,
  locateDaemon,
  startupLogPath,
  type SpawnDaemon,
} from './daemon-locator.js';
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
  /** How long a freshly started daemon gets to answer /api/identity. */
  startupTimeoutMs?: number;
}

/**
 * What went wrong, as one sentence that names what answered (or did not), and `see`: where
 * the rest of the story is, when the sentence does not hold it all. Only the daemon's log
 * files are ever named, and only when they hold something about this failure.
 */
interface Failure {
  readonly what: string;
  readonly see?: string;
  /** Nothing answered: the user's next step is to start the daemon. */
  readonly unreachable?: boolean;
}

type Attempt = { kind: 'answered'; body: string } | { kind: 'unreachable'; why: string } | { kind: 'failed'; failure: Failure };

/** Characters of a daemon's error message quoted back to the user. */
const DETAIL_LIMIT = 500;

export async function runClient(options: RunClientOptions): Promise<ClientResult> {
  const { event, lenient } = options;
  if (!/^[A-Za-z]+$/.test(event)) {
    return { stdout: '', stderr: `gobby: missing or invalid hook event name ${JSON.stringify(event)}\n${CLIENT_USAGE}\n`, exitCode: 1 };
  }
  const located = locateDaemon(options.env);
  const { home } = located;
  let { port } = located;
  try {
    let attempt = await postHook(options, port, home);
    if (attempt.kind === 'unreachable') {
      const started = await ensureDaemon({
        env: options.env,
        daemonMain: options.daemonMain,
        startupTimeoutMs: options.startupTimeoutMs ?? 5000,
        ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
        ...(options.spawnDaemon ? { spawnDaemon: options.spawnDaemon } : {}),
      });
      if (started.kind === 'failed' && started.reason === 'port-taken') {
        // The sentence holds the fix; no log has anything to add.
        attempt = { kind: 'failed', failure: { what: started.why } };
      } else if (started.kind === 'failed') {
        // One line: it ends up in a systemMessage. The startup log holds the rest, when the
        // daemon wrote anything there; else starting it by hand is the way to see why.
        const why = truncate(withoutGobbyPrefix(started.why.split('\n')[0] ?? ''), DETAIL_LIMIT);
        const startupLog = startupLogPath(home);
        const what = `no gobby daemon answers on 127.0.0.1:${port} (${attempt.why}), and it could not be started: ${why}`;
        attempt = { kind: 'failed', failure: hasContent(startupLog) ? { what, see: startupLog } : { what, unreachable: true } };
      } else {
        port = started.port;
        attempt = await postHook(options, port, home);
      }
    }
    switch (attempt.kind) {
      case 'answered':
        return { stdout: attempt.body, stderr: '', exitCode: 0 };
      case 'unreachable':
        return applyFailurePolicy(event, lenient, { what: `no gobby daemon answers on 127.0.0.1:${port} (${attempt.why})`, unreachable: true });
      case 'failed':
        return applyFailurePolicy(event, lenient, attempt.failure);
    }
  } catch (error) {
    // A bug here must not decide enforcement by accident: fall back to the declared policy.
    return applyFailurePolicy(event, lenient, { what: `the hook client failed before the daemon could be asked: ${describeError(error)}` });
  }
}

/**
 * POSTs the raw payload, saying which GOBBY_HOME it is for: the daemon of another home refuses
 * it (409) rather than record this session. Only a 2xx JSON (or empty) answer that carries
 * gobby's version header is a success; another program's answer is never quoted.
 */
async function postHook(options: RunClientOptions, port: number, home: string): Promise<Attempt> {
  const url = `${daemonUrl(port)}/hooks/${options.event}`;
  const result = await fetchWithDeadline(options.fetchImpl ?? loopbackFetch, url, {
    method: 'POST',
    // The daemon checks this pid against the connection, then takes the process that ran this
    // hook (Claude Code) as the one every later hook event of the session must come from.
    headers: {
      'content-type': 'application/json',
      'x-gobby-hook': '1',
      [CLIENT_PID_HEADER]: String(process.pid),
      [GOBBY_HOME_HEADER]: home,
      // With no good version of the workflow to run, the daemon refuses a strict session's tools and only warns a lenient one.
      'x-gobby-failure-mode': options.lenient ? 'lenient' : 'strict',
    },
    body: options.stdin,
  }, options.requestTimeoutMs ?? 3000);
  const daemonLog = daemonLogPath(home);
  if (result.kind === 'timeout') {
    return { kind: 'failed', failure: { what: `the gobby daemon on 127.0.0.1:${port} did not answer within ${result.ms} ms`, see: daemonLog } };
  }
  if (result.kind === 'error') return { kind: 'unreachable', why: result.why };
  if (result.header(GOBBY_VERSION_HEADER) === undefined) {
    const contentType = result.header('content-type')?.split(';')[0]?.trim() || 'no content-type';
    return { kind: 'failed', failure: { what: describePortConflict({ kind: 'not-gobby', status: result.status, contentType }, port, home) } };
  }
  if (result.status < 200 || result.status > 299) return { kind: 'failed', failure: describeErrorAnswer(port, result.status, result.text, daemonLog) };
  if (result.text.trim() === '') return { kind: 'answered', body: '' };
  try {
    JSON.parse(result.text);
  } catch {
    // Non-JSON stdout would reach the model as plain context; treat it as a failure instead.
    return { kind: 'failed', failure: { what: `the gobby daemon on 127.0.0.1:${port} answered with a body that is not JSON`, see: daemonLog } };
  }
  return { kind: 'answered', body: result.text };
}

/**
 * A gobby error answer, `{ error: { code, message } }`: its message says what is wrong (for
 * another home's daemon, both homes and the fix). A 5xx is gobby's own failure, and the
 * daemon log has its stack.
 */
function describeErrorAnswer(port: number, status: number, text: string, daemonLog: string): Failure {
  let code: unknown;
  let message: unknown;
  try {
    ({ code, message } = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error ?? {});
  } catch {
    // described below without it
  }
  const see = status >= 500 ? daemonLog : undefined;
  if (typeof code !== 'string' || typeof message !== 'string') {
    return { what: `the gobby daemon on 127.0.0.1:${port} answered HTTP ${status} without a gobby error`, see: daemonLog };
  }
  const said = truncate(withoutGobbyPrefix(message.split('\n')[0] ?? '').trim(), DETAIL_LIMIT);
  if (code === 'GOBBY_ERR_HTTP_WRONG_DAEMON') return { what: said };
  return { what: `the gobby daemon on 127.0.0.1:${port} answered HTTP ${status} ${code}: ${said}`, ...(see ? { see } : {}) };
}

function hasContent(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

function applyFailurePolicy(event: string, lenient: boolean, failure: Failure): ClientResult {
  const hint = failure.unreachable ? ' Start it with: gobby daemon start' : failure.see ? ` Details: ${failure.see}` : '';
  const what = gobbyMessage(failure.what);
  if (lenient) {
    return { stdout: '', stderr: `${what}; continuing without workflow enforcement (lenient mode).${hint}\n`, exitCode: 0 };
  }
  if (GUARD_EVENTS.has(event)) {
    // Exit 2 blocks the action; Claude Code shows stderr to the model (PreToolUse) or the user.
    return { stdout: '', stderr: `${what}; blocking this ${event} because gobby runs in strict mode.${hint}\n`, exitCode: 2 };
  }
  // Events that cannot block (SessionStart) get a visible warning instead of silence.
  const scope = event === 'SessionStart' ? 'session start' : `${event} event`;
  const systemMessage = `${what}; workflow enforcement is OFF for this ${scope}.${hint}`;
  return { stdout: `${JSON.stringify({ systemMessage })}\n`, stderr: `${what}\n`, exitCode: 0 };
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

if (isEntryPoint()) {
  exitQuietlyOnBrokenPipe();
  void runClientProcess(process.argv.slice(2), defaultDaemonMain());
}
