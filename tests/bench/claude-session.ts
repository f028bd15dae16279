// Benchmark 3: what gobby adds to a real Claude Code session. The real CLI runs `-p`
// offline against the fake Messages API, which scripts 30 Read calls (allowed in
// plan-execute's `plan` phase, so the whole session runs).
//   A: `gobby install` in the project, workflow plan-execute, the built daemon running.
//   B: the same http hook layout (same events, matchers, timeouts, headers), pointed at a
//      trivial node:http server in its own process that answers `{}`, and NO SessionStart
//      hook: what gobby's SessionStart command costs (a process per session) is part of
//      what A/B measures (#6: at most 1.05x).
// Runs alternate A/B (ABBA order) after one unmeasured warm-up run of each.
import { spawnPortPrintingServer } from './child-server.js';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runClaude, writeProjectSettings, hookEvents, type ClaudeSettings } from '../support/claude-cli.js';
import { allText, startFakeAnthropic, toolResultsIn, type ScriptedTurn } from '../support/fake-anthropic.js';
import { createGobby } from '../support/gobby-process.js';
import { onInterrupt } from './interrupt.js';
import { median, metric, type BenchResult } from './stats.js';

export interface ClaudeBenchOptions {
  /** Measured runs of each variant. */
  readonly runs: number;
  readonly toolCalls: number;
  readonly runTimeoutMs: number;
}

// 8 runs each: single runs vary by ±20% on a shared 2-CPU machine, and the effect being
// looked for is a few percent.
export const CLAUDE_DEFAULTS: ClaudeBenchOptions = { runs: 8, toolCalls: 30, runTimeoutMs: 120_000 };

type Variant = 'A' | 'B';

interface RunRecord {
  readonly variant: Variant;
  readonly ms: number;
  readonly measured: boolean;
}

/** The trivial hook endpoint: answers `{}` to every POST and counts requests and TCP connections. */
const TRIVIAL_SERVER = `
const http = require('node:http');
let connections = 0;
const hookConnections = new WeakSet();
let httpHookConnections = 0;
const requests = {};
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ connections, httpHookConnections, requests }));
    return;
  }
  // Connections that carried an http hook.
  if (!hookConnections.has(req.socket)) {
    hookConnections.add(req.socket);
    httpHookConnections++;
  }
  req.on('data', () => {});
  req.on('end', () => {
    requests[req.url] = (requests[req.url] || 0) + 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.on('connection', () => connections++);
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', () => process.exit(0)).resume();
`;

export async function runClaudeSession(options: ClaudeBenchOptions = CLAUDE_DEFAULTS): Promise<BenchResult> {
  const root = mkdtempSync(join(tmpdir(), 'gobby-bench-claude-'));
  const gobby = await createGobby();
  let trivial: { process: ChildProcess; port: number } | undefined;
  const forget = onInterrupt(async () => {
    trivial?.process.kill('SIGTERM');
    await gobby.cleanup();
    rmSync(root, { recursive: true, force: true });
  });
  try {
    const projectA = join(root, 'project-a');
    const projectB = join(root, 'project-b');
    for (const project of [projectA, projectB]) makeProject(project);

    // A: gobby as a user installs it.
    await gobby.start();
    for (const args of [['install'], ['workflow', 'set', 'plan-execute']]) {
      const run = await gobby.cli(args, projectA);
      if (run.code !== 0) throw new Error(`gobby ${args.join(' ')} failed: ${run.stderr}`);
    }
    const settingsA = readInstalledSettings(projectA);

    // B: the same http hooks, pointed at the trivial server; no SessionStart hook.
    trivial = await startTrivialServer(root);
    const settingsB = redirectHooks(settingsA, gobby.port, trivial.port);
    writeProjectSettings(projectB, settingsB);

    const runs: RunRecord[] = [];
    const checks: Record<Variant, SessionCheck[]> = { A: [], B: [] };
    const order: Variant[] = ['A', 'B'];
    for (let pair = 0; pair < options.runs; pair++) order.push(...((pair % 2 === 0 ? ['A', 'B'] : ['B', 'A']) as Variant[]));
    for (const [index, variant] of order.entries()) {
      const project = variant === 'A' ? projectA : projectB;
      const { ms, check } = await runSession(project, root, options, variant === 'A');
      runs.push({ variant, ms, measured: index >= 2 });
      checks[variant].push(check);
    }
    const trivialStats = await fetchStats(trivial.port);

    const timesOf = (variant: Variant): number[] => runs.filter((r) => r.measured && r.variant === variant).map((r) => r.ms);
    const medianA = median(timesOf('A'));
    const medianB = median(timesOf('B'));
    const ratio = medianA / medianB;
    // Each ABBA pair ran back to back, so its ratio is less exposed to drift in the machine's load.
    const measured = runs.filter((r) => r.measured);
    const pairRatios: number[] = [];
    for (let i = 0; i + 1 < measured.length; i += 2) {
      const [first, second] = [measured[i]!, measured[i + 1]!];
      pairRatios.push(first.variant === 'A' ? first.ms / second.ms : second.ms / first.ms);
    }
    const spread = (values: number[]): string => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;
    const perCall = (medianA - medianB) / options.toolCalls;
    const preToolUseB = trivialStats.requests['/hooks/PreToolUse'] ?? 0;
    const runsB = runs.filter((r) => r.variant === 'B').length;
    const httpRequestsB = Object.values(trivialStats.requests).reduce((sum, n) => sum + n, 0);
    return {
      name: 'claude-session',
      title: `Claude Code -p session, ${options.toolCalls} tool calls: gobby (A) vs trivial http hooks and no SessionStart hook (B)`,
      metrics: [
        metric('median A (gobby)', medianA, 'ms'),
        metric('median B (trivial)', medianB, 'ms'),
        metric('ratio A/B', ratio, 'x', { op: '<=', value: 1.05 }),
        metric('median of paired A/B ratios', median(pairRatios), 'x'),
        metric('added per tool call', perCall, 'ms'),
      ],
      notes: [
        `${options.runs} measured runs of each variant, alternating A/B in ABBA order, after one unmeasured run of each; wall time from spawning \`claude -p\` to its exit`,
        `A runs: ${timesOf('A').map((ms) => ms.toFixed(0)).join(', ')} ms (${spread(timesOf('A'))}); B runs: ${timesOf('B').map((ms) => ms.toFixed(0)).join(', ')} ms (${spread(timesOf('B'))})`,
        `paired A/B ratios (each ABBA pair back to back): ${pairRatios.map((r) => r.toFixed(3)).join(', ')}`,
        `per run: ${describeChecks(checks.A[0])} (A), ${describeChecks(checks.B[0])} (B)`,
        `B: Claude Code sent ${httpRequestsB} http hook requests (${preToolUseB} PreToolUse) over ${trivialStats.httpHookConnections} TCP connections in ${runsB} runs: ${trivialStats.httpHookConnections <= runsB * 2 ? 'its http hooks reuse (keep alive) their connection' : 'its http hooks open new connections'}`,
      ],
      details: { runs, medianA, medianB, ratio, pairRatios, perToolCallMs: perCall, checks, trivialServer: trivialStats, options },
    };
  } finally {
    forget();
    trivial?.process.kill('SIGTERM');
    await gobby.cleanup();
    rmSync(root, { recursive: true, force: true });
  }
}

/** A small TypeScript project for the scripted Read calls to look at. */
function makeProject(project: string): void {
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'README.md'), '# bench project\n\nA small project for the gobby benchmark.\n');
  for (let i = 0; i < 10; i++) {
    const lines = Array.from({ length: 60 }, (_, line) => `export const value${i}_${line} = ${line}; // TODO check ${line}`);
    writeFileSync(join(project, 'src', `module-${i}.ts`), `${lines.join('\n')}\n`);
  }
}

/**
 * 30 Read calls over the project's files (whole files and line ranges), then a closing
 * text. Read, because it is allowed in phase `plan` and this Claude Code build offers no
 * Glob or Grep tool (it sends the model to `find`/`grep` through Bash, which `plan` blocks).
 */
function buildScript(project: string, toolCalls: number): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < toolCalls; i++) {
    const file = i % 11 === 10 ? join(project, 'README.md') : join(project, 'src', `module-${i % 11}.ts`);
    const input = i % 2 === 0 ? { file_path: file } : { file_path: file, offset: 1 + (i % 40), limit: 20 };
    turns.push({ toolUses: [{ name: 'Read', input }] });
  }
  turns.push({ text: 'Plan: 1. nothing to change. 2. done.' });
  return turns;
}

interface SessionCheck {
  readonly toolResults: number;
  readonly toolErrors: number;
  readonly preToolUseHooks: number;
  readonly sessionStartContext: boolean;
}

async function runSession(
  project: string,
  root: string,
  options: ClaudeBenchOptions,
  expectGobby: boolean,
): Promise<{ ms: number; check: SessionCheck }> {
  const home = mkdtempSync(join(root, 'claude-home-'));
  const api = await startFakeAnthropic(buildScript(project, options.toolCalls));
  try {
    const run = await runClaude({
      prompt: 'Read the project and plan the change.',
      cwd: project,
      home,
      baseUrl: api.url,
      allowedTools: [],
      timeoutMs: options.runTimeoutMs,
    });
    const main = api.mainRequests();
    const results = main.flatMap((request) => toolResultsIn(request));
    const check: SessionCheck = {
      toolResults: results.length,
      toolErrors: results.filter((r) => r.is_error).length,
      preToolUseHooks: hookEvents(run.events, 'PreToolUse').filter((e) => e.subtype === 'hook_response').length,
      sessionStartContext: main[0] !== undefined && allText(main[0]).includes('PLANNING'),
    };
    const problems: string[] = [];
    if (run.timedOut || run.exitCode !== 0 || run.result?.is_error !== false) {
      problems.push(`claude exited ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}: ${run.stderr.slice(-500)} ${run.stdout.slice(-500)}`);
    }
    if (main.length !== options.toolCalls + 1) problems.push(`expected ${options.toolCalls + 1} model requests, saw ${main.length}`);
    if (check.toolResults !== options.toolCalls || check.toolErrors > 0) {
      problems.push(`expected ${options.toolCalls} successful tool results, saw ${check.toolResults} (${check.toolErrors} errors)`);
    }
    if (check.sessionStartContext !== expectGobby) problems.push(`gobby's SessionStart context ${expectGobby ? 'missing' : 'present'} in variant ${expectGobby ? 'A' : 'B'}`);
    if (problems.length > 0) throw new Error(`claude session (${expectGobby ? 'A' : 'B'}) did not run as scripted: ${problems.join('; ')}`);
    return { ms: run.durationMs, check };
  } finally {
    await api.close();
    rmSync(home, { recursive: true, force: true });
  }
}

function describeChecks(check: SessionCheck | undefined): string {
  if (!check) return 'no run';
  return `${check.toolResults} tool results, ${check.toolErrors} errors, ${check.preToolUseHooks} PreToolUse hook responses`;
}

/** What `gobby install` wrote: the personal settings file if there is one, else the shared one. */
function readInstalledSettings(project: string): ClaudeSettings {
  const personal = join(project, '.claude', 'settings.local.json');
  const path = existsSync(personal) ? personal : join(project, '.claude', 'settings.json');
  return JSON.parse(readFileSync(path, 'utf8')) as ClaudeSettings;
}

/** gobby's settings with every http hook sent to the trivial server and the SessionStart command hook left out. */
function redirectHooks(settings: ClaudeSettings, gobbyPort: number, trivialPort: number): ClaudeSettings {
  const from = `http://127.0.0.1:${gobbyPort}/`;
  const to = `http://127.0.0.1:${trivialPort}/`;
  const hooks = Object.fromEntries(
    Object.entries(settings.hooks ?? {}).filter(([event]) => event !== 'SessionStart').map(([event, groups]) => [
      event,
      groups.map((group) => ({
        ...group,
        hooks: group.hooks.map((handler) => {
          if (handler.type !== 'http') throw new Error(`unexpected gobby ${handler.type} hook on ${event}`);
          if (!handler.url.startsWith(from)) throw new Error(`unexpected gobby hook url ${handler.url}`);
          return { ...handler, url: to + handler.url.slice(from.length) };
        }),
      })),
    ]),
  );
  return { ...settings, hooks };
}

async function startTrivialServer(root: string): Promise<{ process: ChildProcess; port: number }> {
  const script = join(root, 'trivial-server.cjs');
  writeFileSync(script, TRIVIAL_SERVER);
  return spawnPortPrintingServer([script], 'trivial hook server');
}

interface TrivialStats {
  /** Every TCP connection but the one that asked for these stats. */
  readonly connections: number;
  /** Connections that carried at least one http hook request from Claude Code. */
  readonly httpHookConnections: number;
  readonly requests: Record<string, number>;
}

async function fetchStats(port: number): Promise<TrivialStats> {
  const response = await fetch(`http://127.0.0.1:${port}/stats`);
  const stats = (await response.json()) as TrivialStats;
  return { ...stats, connections: stats.connections - 1 };
}
