// A real daemon for integration tests: composeDaemon over a temporary $GOBBY_HOME (so a
// real SQLite file) and a temporary project directory, driven through `app.inject()`
// exactly as Claude Code (hooks) and the gobby CLI (control API) drive it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { composeDaemon, type ComposedDaemon } from '../../daemon/compose.js';
import type { EffectHandler } from '../../daemon/effects/effect-runner.js';
import { homeLayout, type HomeLayout } from '../../daemon/home-layout.js';

export const TOKEN = 'x'.repeat(64);
export const AUTH = { authorization: `Bearer ${TOKEN}` } as const;
/** 2026-01-01T00:00:00Z: a fixed, readable start for the injected clock. */
const START_MS = Date.UTC(2026, 0, 1);

export interface TestClock {
  (): number;
  advance(ms: number): void;
}

export function createTestClock(start = START_MS): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export interface Reply<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly text: string;
}

// Loose JSON shapes: tests read what a user would read, field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON is read field by field
export type Json = any;

export interface AuditRowView {
  readonly event: string;
  readonly tool: string | null;
  readonly decision: string;
  readonly phase: string | null;
  readonly because: string;
  readonly reason: string | null;
  readonly actor: string;
}

export interface TestDaemonOptions {
  readonly watchDefinitions?: boolean;
  readonly bodyLimitBytes?: number;
  readonly extraEffectHandlers?: readonly EffectHandler[];
  /**
   * The user's home directory as the daemon sees it (`~` in shell commands, `~/.claude/`),
   * with $GOBBY_HOME at `<userHome>/.gobby` as a default install has it. Default: this
   * machine's home, with $GOBBY_HOME in a temporary folder.
   */
  readonly userHome?: string;
}

export interface StopOptions {
  /** Whether the model's last message asks the phase's approval question. Default true. */
  readonly askedApproval?: boolean;
  readonly stopHookActive?: boolean;
  readonly cwd?: string;
}

export class TestDaemon {
  daemon: ComposedDaemon;
  readonly layout: HomeLayout;
  readonly clock: TestClock;
  private sessionCounter = 0;
  /** Each returns true once it got the change it waits for. */
  private definitionWaiters: ((directory: string) => boolean)[] = [];

  private constructor(
    readonly home: string,
    /** A git project root (it holds `.git`); the default cwd of every session. */
    readonly project: string,
    private readonly options: TestDaemonOptions,
  ) {
    this.layout = homeLayout(home);
    this.clock = createTestClock();
    this.daemon = this.compose();
  }

  static create(options: TestDaemonOptions = {}): TestDaemon {
    const home = options.userHome === undefined ? mkdtempSync(join(tmpdir(), 'gobby-it-home-')) : join(options.userHome, '.gobby');
    mkdirSync(home, { recursive: true });
    const project = makeProject();
    return new TestDaemon(home, project, options);
  }

  private compose(): ComposedDaemon {
    return composeDaemon({
      layout: this.layout,
      token: TOKEN,
      logger: false,
      bodyLimitBytes: this.options.bodyLimitBytes ?? 1024 * 1024,
      watchDefinitions: this.options.watchDefinitions ?? false,
      clock: this.clock,
      ...(this.options.userHome === undefined ? {} : { userHome: this.options.userHome }),
      ...(this.options.extraEffectHandlers ? { extraEffectHandlers: this.options.extraEffectHandlers } : {}),
      onDefinitionsChanged: (directory) => {
        this.definitionWaiters = this.definitionWaiters.filter((waiter) => !waiter(directory));
      },
    });
  }

  /**
   * Resolves when the daemon's file watcher next reports a change in `directory`, after
   * which new sessions see that folder as it is on disk. Call it before writing the file
   * and await it after: `const seen = t.nextDefinitionsChange(dir); write(); await seen;`.
   */
  nextDefinitionsChange(directory: string, timeoutMs = 5000): Promise<void> {
    const wanted = realPath(directory);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the daemon reported no change in ${directory} within ${timeoutMs} ms`)), timeoutMs);
      const waiter = (changed: string): boolean => {
        if (realPath(changed) !== wanted) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      this.definitionWaiters.push(waiter);
    });
  }

  get app() {
    return this.daemon.app;
  }

  /** What a client on this machine sends as Host: once the app listens, it must name its port. */
  get hostHeader(): string {
    const address = this.app.server.address();
    return `127.0.0.1:${address && typeof address === 'object' ? address.port : 4517}`;
  }

  /**
   * Stops this daemon and starts a new one over the same $GOBBY_HOME (and SQLite file);
   * `whileStopped` runs in between (to change the files a start reads).
   */
  async restart(whileStopped?: () => void): Promise<void> {
    await this.daemon.close();
    whileStopped?.();
    this.daemon = this.compose();
  }

  async dispose(): Promise<void> {
    await this.daemon.close();
    rmSync(this.home, { recursive: true, force: true });
    rmSync(this.project, { recursive: true, force: true });
  }

  newSessionId(): string {
    this.sessionCounter += 1;
    return `00000000-0000-4000-8000-${String(this.sessionCounter).padStart(12, '0')}`;
  }

  /** A new session of this project in plan-execute's `plan` phase, after its first prompt. */
  async planningSession(): Promise<string> {
    const chosen = await this.setWorkflow('plan-execute');
    if (chosen.status !== 200) throw new Error(`test: setWorkflow answered ${chosen.status}: ${chosen.text}`);
    const session = this.newSessionId();
    await this.sessionStart(session);
    await this.prompt(session, 'Add a --verbose flag');
    return session;
  }

  async inject<T = Json>(options: InjectOptions): Promise<Reply<T>> {
    const response = await this.app.inject(options);
    let body: T;
    try {
      body = response.json<T>();
    } catch {
      body = undefined as T;
    }
    return { status: response.statusCode, body, text: response.body };
  }

  /**
   * POSTs a hook event the way Claude Code's http hook does. The clock moves one second
   * first, so "most recently active" is well defined.
   */
  async hook<T = Json>(event: string, sessionId: string, fields: Record<string, unknown> = {}, cwd = this.project): Promise<Reply<T>> {
    this.clock.advance(1000);
    return this.inject<T>({
      method: 'POST',
      url: `/hooks/${event}`,
      headers: { 'content-type': 'application/json', 'user-agent': 'axios/1.8.4', host: this.hostHeader },
      payload: hookPayload(event, sessionId, cwd, fields),
    });
  }

  preToolUse(sessionId: string, toolName: string, toolInput: Record<string, unknown>, cwd = this.project) {
    return this.hook('PreToolUse', sessionId, { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId() }, cwd);
  }

  postToolUse(sessionId: string, toolName: string, toolInput: Record<string, unknown>, cwd = this.project) {
    return this.hook(
      'PostToolUse',
      sessionId,
      { tool_name: toolName, tool_input: toolInput, tool_response: { success: true }, tool_use_id: toolUseId(), duration_ms: 3 },
      cwd,
    );
  }

  sessionStart(sessionId: string, cwd = this.project, source = 'startup') {
    return this.hook('SessionStart', sessionId, { source, model: 'claude-sonnet-4-5' }, cwd);
  }

  prompt(sessionId: string, prompt: string, cwd = this.project) {
    return this.hook('UserPromptSubmit', sessionId, { prompt, prompt_id: toolUseId() }, cwd);
  }

  /**
   * The model ends its turn. By default its last message asks plan-execute's approval
   * question; `askedApproval: false` ends it with a clarifying question instead.
   */
  stop(sessionId: string, { askedApproval = true, stopHookActive = false, cwd = this.project }: StopOptions = {}) {
    const lastMessage = askedApproval
      ? 'Here is my plan: 1. … 2. … Plan complete. Ready to implement?'
      : 'Before I plan: should the flag also apply to the config file?';
    return this.hook(
      'Stop',
      sessionId,
      { stop_hook_active: stopHookActive, last_assistant_message: lastMessage, background_tasks: [], session_crons: [] },
      cwd,
    );
  }

  /** A control-API call as the gobby CLI makes it (token, loopback Host, actor header). */
  api<T = Json>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    return this.inject<T>({
      method,
      url,
      headers: { ...AUTH, host: this.hostHeader, 'x-gobby-actor': 'tester', ...headers },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  }

  status<T = Json>(cwd = this.project, session?: string): Promise<Reply<T>> {
    const query = new URLSearchParams({ cwd, ...(session ? { session } : {}) });
    return this.api<T>('GET', `/api/status?${query.toString()}`);
  }

  setWorkflow<T = Json>(workflow: string, cwd = this.project): Promise<Reply<T>> {
    return this.api<T>('PUT', '/api/projects/workflow', { cwd, workflow });
  }

  /** Every audit row of a session, oldest first, read straight from SQLite. */
  auditRows(sessionId: string): AuditRowView[] {
    return this.daemon.store.audit
      .recent(sessionId, 10_000)
      .reverse()
      .map((row) => ({
        event: row.event,
        tool: row.toolName ?? null,
        decision: row.decision,
        phase: row.phase ?? null,
        because: row.because,
        reason: row.reason ?? null,
        actor: row.actor ?? 'claude-code',
      }));
  }
}

/** The JSON Claude Code posts for `event` (design/claude-code-hooks.md §4.1). */
export function hookPayload(event: string, sessionId: string, cwd: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: sessionId,
    transcript_path: `/home/user/.claude/projects/-tmp-project/${sessionId}.jsonl`,
    cwd,
    hook_event_name: event,
    // Claude Code leaves permission_mode out of SessionEnd.
    ...(event === 'SessionEnd' ? {} : { permission_mode: 'default' }),
    ...fields,
  };
}

/** A temporary git project (a `.git` directory is what makes it a project root). */
export function makeProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'gobby-it-project-'));
  mkdirSync(join(project, '.git'));
  return project;
}

/** Writes `<project>/.gobby/workflows/<file>`. */
export function writeProjectWorkflow(project: string, file: string, text: string): string {
  const directory = join(project, '.gobby', 'workflows');
  mkdirSync(directory, { recursive: true });
  const path = join(directory, file);
  writeFileSync(path, text);
  return path;
}

/** The path with symlinks resolved (a temp dir may sit behind one), or as given while it does not exist. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

let toolUseCounter = 0;
function toolUseId(): string {
  toolUseCounter += 1;
  return `toolu_01${String(toolUseCounter).padStart(22, '0')}`;
}

/** The newest audit row of an event in `status.last_decisions` (newest first). */
export function lastDecisionFor(status: Json, event: string): Json {
  return (status.last_decisions as Json[]).find((row) => row.event === event);
}
