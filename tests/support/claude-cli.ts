/**
 * Runs the real Claude Code CLI (node_modules/.bin/claude, v2.1.330) headless and offline
 * against a fake Messages API (see fake-anthropic.ts).
 *
 * Findings that shaped this module (verified on v2.1.330, as root, in a temp dir):
 *
 * - Isolation: HOME and CLAUDE_CONFIG_DIR both point into a per-test temp home, and the child
 *   gets a clean env (no inherited variables), so the developer's ~/.claude settings,
 *   credentials, hooks and ANTHROPIC_* variables never leak in. With CLAUDE_CONFIG_DIR set,
 *   the CLI keeps `.claude.json`, transcripts (`projects/<cwd-slug>/<session>.jsonl`) and
 *   backups inside it. Managed policy (/etc/claude-code/managed-settings.json) would still
 *   apply; there is none on this machine.
 * - Network: with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 (plus the other switches below)
 *   `strace -e connect` shows the CLI connecting only to ANTHROPIC_BASE_URL on 127.0.0.1;
 *   no DNS lookups.
 * - Requests: `-p` runs (fresh, `--resume`, with hooks, with an Agent subagent) only call
 *   `POST /v1/messages?beta=true`, always streaming and always with tools; no count_tokens,
 *   no title generation, nothing else at startup.
 * - Hook events: SessionStart `hook_started`/`hook_response` come before `system/init` in
 *   the stream. Command hooks run in their own session (setsid), so they are not in the
 *   CLI's process group; see the timeout handling.
 * - Trust and git: in `-p` mode workspace trust is implied, so the project's
 *   `<cwd>/.claude/settings.json` hooks run with no trust dialog and nothing written to
 *   `.claude.json`. A git repo is NOT needed. Project settings are read from `<cwd>/.claude/`
 *   and CLAUDE_PROJECT_DIR is `cwd`, even when cwd is a subdirectory of a git repo (the
 *   repo root's `.claude/settings.json` was not loaded then).
 *   Caveat: `-p` silently drops a settings file that fails validation (hooks included);
 *   `writeProjectSettings` is typed, and tests should assert that a hook really fired.
 * - Permissions as root: `bypassPermissions` / `--dangerously-skip-permissions` exit 1 with
 *   "cannot be used with root/sudo privileges" unless IS_SANDBOX=1. Default mode in `-p`
 *   refuses Write ("you haven't granted it yet") and Bash with side effects ("needs
 *   approval"). `--permission-mode acceptEdits --allowedTools Bash` lets Write/Edit and any
 *   Bash command run, while PreToolUse hook denies still win. That is the default here.
 * - Retries: CLAUDE_CODE_MAX_RETRIES=0 so a fake-server error fails the run at once (exit 1,
 *   result `is_error` with "API Error: 500 ...") instead of backing off for minutes.
 * - Speed: one `claude -p` run with a couple of tool calls takes about 1 s here.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repo root, resolved from this file so tests may run with any cwd. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLAUDE_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'claude');

/** Model passed with --model; the fake server does not care, but hooks see it. */
const TEST_MODEL = 'claude-sonnet-4-5';

export type PermissionMode = 'acceptEdits' | 'auto' | 'bypassPermissions' | 'manual' | 'dontAsk' | 'plan' | 'default';

export interface RunClaudeOptions {
  prompt: string;
  /** Project directory; the CLI runs here and loads `<cwd>/.claude/settings.json`. */
  cwd: string;
  /** Isolated home directory; CLAUDE_CONFIG_DIR becomes `<home>/.claude`. */
  home: string;
  /** Fake Messages API base URL (ANTHROPIC_BASE_URL). */
  baseUrl: string;
  /** Extra settings file passed with `--settings` (flagSettings source). */
  settingsPath?: string;
  /** Resume this session id (`--resume <id>`). */
  resume?: string;
  /** Use this session id for a new session (`--session-id <uuid>`). */
  sessionId?: string;
  /** Default 'acceptEdits'. 'bypassPermissions' sets IS_SANDBOX=1 (we run as root). */
  permissionMode?: PermissionMode;
  /** `--allowedTools` rules. Default ['Bash']; pass [] to add none. */
  allowedTools?: string[];
  /** Appended after all other arguments. */
  extraArgs?: string[];
  /** Added to (and overriding) the clean environment. */
  env?: Record<string, string>;
  /** Hard limit: SIGTERM, then SIGKILL 2 s later (CLI group and its hooks). Default 60 000 ms. */
  timeoutMs?: number;
}

/** One line of `--output-format stream-json` output. */
export interface StreamEvent {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
}

/** The final `{"type":"result"}` event. */
export interface ResultEvent extends StreamEvent {
  type: 'result';
  subtype: string;
  is_error: boolean;
  result?: string;
  num_turns?: number;
  stop_reason?: string | null;
  permission_denials?: { tool_name: string; tool_use_id: string; tool_input: unknown }[];
}

/** `system/hook_started` and `system/hook_response` events (from --include-hook-events). */
export interface HookEvent extends StreamEvent {
  type: 'system';
  subtype: 'hook_started' | 'hook_response';
  /** e.g. `PreToolUse:Write`, `SessionStart:startup`. */
  hook_name: string;
  hook_event: string;
  output?: string;
  stdout?: string;
  stderr?: string;
  /** Process exit code for command hooks, HTTP status for http hooks. */
  exit_code?: number;
  outcome?: 'success' | 'error' | 'cancelled';
}

export interface ClaudeRunResult {
  /** Process exit code; -1 when the process was killed by a signal. */
  exitCode: number;
  signal: NodeJS.Signals | null;
  /** True when the hard timeout killed the process. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Parsed stream-json lines (non-JSON lines are skipped; they stay in `stdout`). */
  events: StreamEvent[];
  result?: ResultEvent;
  /** Session id from the init or result event. */
  sessionId?: string;
  durationMs: number;
}

export async function runClaude(opts: RunClaudeOptions): Promise<ClaudeRunResult> {
  const permissionMode = opts.permissionMode ?? 'acceptEdits';
  const allowedTools = opts.allowedTools ?? ['Bash'];
  const args = [
    '-p',
    opts.prompt,
    '--output-format',
    'stream-json',
    '--verbose', // stream-json requires --verbose with -p
    '--include-hook-events',
    '--model',
    TEST_MODEL,
    '--permission-mode',
    permissionMode,
  ];
  if (allowedTools.length > 0) args.push('--allowedTools', ...allowedTools);
  if (opts.settingsPath !== undefined) args.push('--settings', opts.settingsPath);
  if (opts.resume !== undefined) args.push('--resume', opts.resume);
  if (opts.sessionId !== undefined) args.push('--session-id', opts.sessionId);
  args.push(...(opts.extraArgs ?? []));

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: opts.home,
    CLAUDE_CONFIG_DIR: join(opts.home, '.claude'),
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DO_NOT_TRACK: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    // Command hooks and the Bash tool run through $SHELL; pin it rather than inherit it.
    ...(existsSync('/bin/bash') ? { SHELL: '/bin/bash' } : {}),
    ...(permissionMode === 'bypassPermissions' ? { IS_SANDBOX: '1' } : {}),
    ...opts.env,
  };

  const started = Date.now();
  // detached: the CLI gets its own process group, so the timeout can signal it and any
  // children that stay in that group without touching the test runner.
  const child = spawn(CLAUDE_BIN, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  let timedOut = false;
  let graceTimer: NodeJS.Timeout | undefined;
  let stragglers: ProcId[] = [];
  const timer = setTimeout(() => {
    timedOut = true;
    // Hook commands run in their own session (setsid), so killing the CLI's process group
    // does not reach them. SIGTERM lets the CLI kill its hooks itself (verified); SIGKILL
    // after a grace period covers a wedged CLI, plus the descendants seen at timeout.
    stragglers = descendantsOf(child.pid);
    signalGroup(child.pid, 'SIGTERM');
    graceTimer = setTimeout(() => killAll(child.pid, stragglers), KILL_GRACE_MS);
  }, opts.timeoutMs ?? 60_000);

  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, s) => resolve([c, s]));
    // 'close' waits for stdout/stderr to end, and a grandchild that inherited them would
    // hold them open; once the CLI itself has exited, stop waiting for them after a bit.
    child.once('exit', () => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, KILL_GRACE_MS).unref();
    });
  }).finally(() => clearTimeout(timer));
  if (timedOut) {
    // The CLI is gone; SIGKILL whatever it left behind (e.g. a hook it did not reap).
    clearTimeout(graceTimer);
    killAll(child.pid, stragglers);
  }

  const events = parseStreamJson(stdout);
  const result = events.find((e): e is ResultEvent => e.type === 'result');
  const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
  return {
    exitCode: code ?? -1,
    signal,
    timedOut,
    stdout,
    stderr,
    events,
    result,
    sessionId: result?.session_id ?? init?.session_id,
    durationMs: Date.now() - started,
  };
}

const KILL_GRACE_MS = 2_000;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** A process identified by pid plus start time, so a recycled pid is never killed. */
interface ProcId {
  pid: number;
  startTime: string;
}

/** `/proc/<pid>/stat` fields after the `(comm)`; comm may contain spaces or parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** All descendants of `root` (Linux /proc; empty elsewhere). */
function descendantsOf(root: number | undefined): ProcId[] {
  if (root === undefined || !existsSync('/proc')) return [];
  const children = new Map<number, ProcId[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    const fields = Number.isInteger(pid) ? statFields(pid) : undefined;
    // fields[1] is ppid, fields[19] is starttime (stat fields 4 and 22).
    if (fields?.[1] === undefined || fields[19] === undefined) continue;
    const ppid = Number(fields[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), { pid, startTime: fields[19] }]);
  }
  const found: ProcId[] = [];
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

function killAll(pid: number | undefined, stragglers: ProcId[]): void {
  signalGroup(pid, 'SIGKILL');
  for (const proc of stragglers) killIfSame(proc);
}

function killIfSame(proc: ProcId): void {
  if (statFields(proc.pid)?.[19] !== proc.startTime) return;
  try {
    process.kill(proc.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function parseStreamJson(stdout: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as StreamEvent);
    } catch {
      // A partial last line (killed process) or stray output; keep going.
    }
  }
  return events;
}

/** Hook events from the stream, optionally only those whose hook_name starts with `prefix`. */
export function hookEvents(events: StreamEvent[], prefix = ''): HookEvent[] {
  return events.filter(
    (e): e is HookEvent =>
      e.type === 'system' &&
      (e.subtype === 'hook_started' || e.subtype === 'hook_response') &&
      typeof e.hook_name === 'string' &&
      e.hook_name.startsWith(prefix),
  );
}

// ---------------------------------------------------------------------------------------
// Temp projects and settings
// ---------------------------------------------------------------------------------------

export interface ClaudeSandbox {
  root: string;
  /** Isolated HOME for the CLI. */
  home: string;
  /** Project directory (the CLI's cwd); not a git repo. */
  project: string;
  cleanup(): void;
}

/** Creates `<tmp>/gobby-e2e-XXXX/{home,project}`. Outside any git repo on purpose. */
export function makeClaudeSandbox(): ClaudeSandbox {
  const root = mkdtempSync(join(tmpdir(), 'gobby-e2e-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  return { root, home, project, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface CommandHookHandler {
  type: 'command';
  command: string;
  args?: string[];
  timeout?: number;
  async?: boolean;
  onFailure?: 'continue' | 'block';
  statusMessage?: string;
  if?: string;
  once?: boolean;
}

export interface HttpHookHandler {
  type: 'http';
  url: string;
  timeout?: number;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  onFailure?: 'continue' | 'block';
  statusMessage?: string;
  if?: string;
  once?: boolean;
}

export type HookHandler = CommandHookHandler | HttpHookHandler;

export interface HookMatcherEntry {
  matcher?: string;
  hooks: HookHandler[];
}

/** The subset of Claude Code settings tests write. Event names are not checked here. */
export interface ClaudeSettings {
  hooks?: Record<string, HookMatcherEntry[]>;
  permissions?: { allow?: string[]; deny?: string[]; ask?: string[]; defaultMode?: string };
  [key: string]: unknown;
}

/**
 * Writes `<project>/.claude/settings.json` (the projectSettings source). Returns its path.
 * The typed parameter is the only validation; `-p` silently ignores a malformed file.
 */
export function writeProjectSettings(project: string, settings: ClaudeSettings): string {
  const path = join(project, '.claude', 'settings.json');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
  return path;
}
