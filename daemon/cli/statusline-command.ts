// `gobby statusline`: Claude Code's status line command. Claude Code runs it after messages
// change (at most every 300 ms), writes a JSON object about the session to its stdin
// (session_id, cwd, workspace.current_dir, model, …) and shows the non-empty lines of its
// stdout; a non-zero exit shows nothing. So this command is quick, never hangs, never prints a
// stack trace, and says one short line when the daemon cannot answer.
//
// It starts on every status line refresh, so it imports node built-ins and small zod-free
// modules only (no commander, no zod: together they cost ~300 ms of start-up here), like the
// hook client. `--then '<command>'` runs the user's previous status line with the same stdin
// and prints its lines first, then gobby's line below them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

import { GOBBY_HOME_HEADER, GOBBY_VERSION_HEADER, locateDaemon } from '../../hooks/daemon-locator.js';
import { describeError } from '../../hooks/describe-error.js';
import { fetchWithDeadline, loopbackFetch, type FetchLike } from '../../hooks/loopback-fetch.js';
import { truncate } from '../../hooks/truncate.js';
import { describeTimeLeft } from '../../workflows/notices.js';
import type { StatusLineAnswer } from '../contracts/statusline-answer.js';

import { readControlToken } from '../control-token.js';
import { homeLayout } from '../home-layout.js';

type Env = Record<string, string | undefined>;

/** The daemon answers in milliseconds; this only bounds a daemon that hangs. */
const DAEMON_TIMEOUT_MS = 1000;
/** The user's own status line gets longer: it may run git or read files. */
const PREVIOUS_TIMEOUT_MS = 5000;
const STDIN_TIMEOUT_MS = 1000;
/** Longest text of a daemon error quoted in the line. */
const ERROR_LIMIT = 120;

const USAGE = "usage: gobby statusline [--json] [--then '<your previous status line command>']";
const HELP =
  "One line for Claude Code's status line: the session's workflow and phase, an approval waiting for your\n" +
  'reply, the refusals of this turn, whether enforcement is off, and a workflow file that does not load.\n' +
  'Claude Code runs it with the session as JSON on stdin\n' +
  '(settings.json: "statusLine": {"type": "command", "command": "gobby statusline"}).\n' +
  "  --then '<command>'  run your own status line first, with the same stdin; its lines come above gobby's\n" +
  '  --json             the line and what the daemon said, as JSON';

export interface StatusLineOptions {
  readonly args: readonly string[];
  /** What Claude Code wrote to stdin (empty when run by hand). */
  readonly stdin: string;
  readonly env: Env;
  /** Used when stdin names no directory. */
  readonly cwd: string;
  readonly fetchImpl?: FetchLike;
}

export interface StatusLineResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** What gobby found: the daemon's answer, or why there is none (said in one short line). */
export type StatusLineReading =
  | { readonly daemon: 'running'; readonly status: StatusLineAnswer }
  | { readonly daemon: 'not running' | 'not gobby' | 'error'; readonly problem: string };

export async function runStatusLine(options: StatusLineOptions): Promise<StatusLineResult> {
  const parsed = parseArgs(options.args);
  if ('help' in parsed) return { stdout: `${USAGE}\n\n${HELP}\n`, stderr: '', exitCode: 0 };
  if ('problem' in parsed) return { stdout: '', stderr: `gobby: ${parsed.problem}\n${USAGE}\n`, exitCode: 2 };
  const session = readSessionInput(options.stdin);
  const [reading, previous] = await Promise.all([
    readStatus(options, session.cwd ?? options.cwd, session.sessionId),
    parsed.then !== undefined && !parsed.json ? runPrevious(parsed.then, options.stdin, options.env) : undefined,
  ]);
  const line = renderStatusLine(reading);
  if (parsed.json) {
    const json = reading.daemon === 'running' ? { line, daemon: reading.daemon, status: reading.status } : { line, daemon: reading.daemon, status: null };
    return { stdout: `${JSON.stringify(json, null, 2)}\n`, stderr: '', exitCode: 0 };
  }
  const lines = [...(previous?.lines ?? []), line];
  return { stdout: `${lines.join('\n')}\n`, stderr: previous?.stderr ?? '', exitCode: 0 };
}

function parseArgs(args: readonly string[]): { json: boolean; then?: string } | { problem: string } | { help: true } {
  let json = false;
  let then: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--then') {
      if (args[i + 1] === undefined) return { problem: 'statusline: --then needs the command to run first' };
      then = args[(i += 1)];
    } else if (arg.startsWith('--then=')) then = arg.slice('--then='.length);
    else if (arg === '--help' || arg === '-h') return { help: true };
    else return { problem: `statusline: unknown argument ${JSON.stringify(arg)}` };
  }
  return then === undefined ? { json } : { json, then };
}

/** The session and directory from Claude Code's JSON; anything unreadable is simply absent. */
function readSessionInput(stdin: string): { sessionId?: string; cwd?: string } {
  let input: unknown;
  try {
    input = JSON.parse(stdin);
  } catch {
    return {};
  }
  if (typeof input !== 'object' || input === null) return {};
  const { session_id: sessionId, cwd, workspace } = input as Record<string, unknown>;
  const currentDir = typeof workspace === 'object' && workspace !== null ? (workspace as Record<string, unknown>).current_dir : undefined;
  const dir = [currentDir, cwd].find((value): value is string => typeof value === 'string' && value.length > 0);
  return {
    ...(typeof sessionId === 'string' && sessionId.length > 0 ? { sessionId } : {}),
    ...(dir === undefined ? {} : { cwd: dir }),
  };
}

async function readStatus(options: StatusLineOptions, cwd: string, sessionId: string | undefined): Promise<StatusLineReading> {
  const { home, port, baseUrl } = locateDaemon(options.env);
  const token = readControlToken(homeLayout(home).token);
  const query = new URLSearchParams({ cwd, ...(sessionId === undefined ? {} : { session: sessionId }) });
  const fetchImpl = options.fetchImpl ?? loopbackFetch;
  let status = 0;
  let version: string | undefined;
  let text = '';
  try {
    // fetchWithDeadline bounds the whole exchange but keeps no headers: note the version header on the way.
    const result = await fetchWithDeadline(
      async (url, init) => {
        const response = await fetchImpl(url, init);
        version = response.header(GOBBY_VERSION_HEADER);
        return response;
      },
      `${baseUrl}/api/statusline?${query.toString()}`,
      // The home header makes another GOBBY_HOME's daemon on this port refuse (409) rather than answer.
      { method: 'GET', headers: { [GOBBY_HOME_HEADER]: home, ...(token ? { authorization: `Bearer ${token}` } : {}) } },
      DAEMON_TIMEOUT_MS,
    );
    if (result.kind === 'error') return { daemon: 'not running', problem: result.why };
    if (result.kind === 'timeout') return { daemon: 'error', problem: `the daemon on port ${port} did not answer within ${result.ms} ms` };
    status = result.status;
    text = result.text;
  } catch (error) {
    return { daemon: 'error', problem: describeError(error) };
  }
  if (version === undefined) return { daemon: 'not gobby', problem: `another program answers on port ${port}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { daemon: 'error', problem: `the daemon answered HTTP ${status} without JSON` };
  }
  if (status < 200 || status > 299) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    return { daemon: 'error', problem: typeof message === 'string' ? truncate(message, ERROR_LIMIT) : `the daemon answered HTTP ${status}` };
  }
  if (!isStatusLineAnswer(body)) return { daemon: 'error', problem: 'the daemon answered in a shape this gobby cannot read (restart it: gobby daemon stop && gobby daemon start)' };
  return { daemon: 'running', status: body };
}

/** Enough of a check to render safely without zod: the fields the line reads. */
function isStatusLineAnswer(body: unknown): body is StatusLineAnswer {
  if (typeof body !== 'object' || body === null) return false;
  const answer = body as Record<string, unknown>;
  const enforcement = answer.enforcement as Record<string, unknown> | null | undefined;
  return (
    typeof answer.session_known === 'boolean' &&
    typeof answer.blocked_this_turn === 'number' &&
    typeof enforcement === 'object' &&
    enforcement !== null &&
    typeof enforcement.state === 'string'
  );
}

/**
 * One line, most important first: whose workflow and where, then what waits for the user
 * (an approval), what happened this turn (refusals), and whether anything is enforced at all.
 */
function renderStatusLine(reading: StatusLineReading): string {
  if (reading.daemon === 'not running') return 'gobby: daemon not running (gobby daemon start)';
  if (reading.daemon !== 'running') return `gobby: ${reading.problem}`;
  const status = reading.status;
  const { enforcement } = status;
  if (!status.session_known || status.phase === null) {
    const why = enforcement.state === 'off' ? enforcement.why : 'nothing enforced';
    const broken = brokenFileNote(status);
    return [status.workflow === null ? `gobby: ${why}` : `gobby: ${status.workflow} · ${why}`, ...(broken ? [broken] : [])].join(' · ');
  }
  const place = status.phase_number !== null && status.phase_count !== null ? ` (${status.phase_number}/${status.phase_count})` : '';
  const parts = [`gobby: ${status.workflow ?? 'workflow'} › ${status.phase}${place}`];
  if (enforcement.state === 'disabled') parts.push(`enforcement OFF (${enforcement.reason}); gobby workflow enable`);
  else if (enforcement.state === 'paused') {
    parts.push(`enforcement paused, ${describeTimeLeft(enforcement.seconds_left * 1000)} left (${enforcement.reason})`);
  } else if (enforcement.state === 'off') parts.push(`enforcement off: ${enforcement.why}`);
  const pending = status.pending_approval;
  if (pending) {
    const next = pending.next_phase === null ? '' : ` to move to ${pending.next_phase}`;
    parts.push(`approval pending: reply ${pending.approve_words[0] ?? 'yes'}${next}, ${pending.reject_words[0] ?? 'no'} to stay`);
  }
  if (status.blocked_this_turn > 0) parts.push(`${status.blocked_this_turn} refused this turn`);
  const broken = brokenFileNote(status);
  if (broken) parts.push(broken);
  return parts.join(' · ');
}

/** A daemon older than this CLI sends no `workflow_problem`: nothing to say then. */
function brokenFileNote(status: StatusLineAnswer): string | undefined {
  const problem = status.workflow_problem;
  if (typeof problem !== 'object' || problem === null || typeof problem.error !== 'string') return undefined;
  return `workflow file does not load: ${truncate(problem.error, ERROR_LIMIT)} (gobby workflow status)`;
}

/**
 * Runs the user's previous status line command as Claude Code would (bash -c, the same
 * stdin and environment). Its lines are kept only when it exits 0 in time: Claude Code
 * shows nothing for a failed status line either.
 */
function runPrevious(command: string, stdin: string, env: Env): Promise<{ lines: string[]; stderr: string }> {
  return new Promise((resolve) => {
    const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (lines: string[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ lines, stderr });
    };
    const child = spawn(shell, ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      stderr += `gobby: the previous status line command did not finish within ${PREVIOUS_TIMEOUT_MS} ms\n`;
      finish([]);
    }, PREVIOUS_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error) => {
      stderr += `gobby: could not run the previous status line command: ${describeError(error)}\n`;
      finish([]);
    });
    child.on('close', (code) => finish(code === 0 ? stdout.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '') : []));
    // A command that does not read its stdin closes the pipe early: that is not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // Claude Code closes stdin after the JSON; a caller that never does must not hang us.
    const timer = setTimeout(() => {
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }, STDIN_TIMEOUT_MS);
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    process.stdin.on('error', () => {
      clearTimeout(timer);
      resolve('');
    });
  });
}

// The process entry: `args` are what follows `statusline` on the command line. cli/gobby.ts and
// cli/main.ts import it on demand, which the unused-exports check cannot see.
// ts-unused-exports:disable-next-line
export async function statusLineMain(args: readonly string[]): Promise<never> {
  let result: StatusLineResult;
  try {
    result = await runStatusLine({ args, stdin: await readStdin(), env: process.env, cwd: process.cwd() });
  } catch (error) {
    // A bug here must still leave Claude Code a line, never a stack trace.
    result = { stdout: `gobby: status line failed (${truncate(describeError(error), ERROR_LIMIT)})\n`, stderr: '', exitCode: 0 };
  }
  await new Promise<void>((resolve) => process.stdout.write(result.stdout, () => resolve()));
  if (result.stderr) await new Promise<void>((resolve) => process.stderr.write(result.stderr, () => resolve()));
  process.exit(result.exitCode);
}
