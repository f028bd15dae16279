// `npm run bench`: builds, then runs the benchmarks and prints a table with PASS/MISS
// against each target. A missed target never fails the run; a benchmark that cannot run
// (daemon does not start, Claude Code misbehaves) does, with exit code 1.
//
//   npm run bench                      all of them, table on stdout
//   npm run bench -- --json            machine-readable results on stdout (progress on stderr)
//   npm run bench -- --only engine,hook
//   npm run bench -- --quick           smaller counts, for checking the harness
//   npm run bench -- --only hook --profile[=dir]   run the daemon under --cpu-prof and say where its time went
//
// Everything talks to 127.0.0.1 only: the daemon, the fake Messages API, the trivial hook server.
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { ENGINE_DEFAULTS, runEngineDecision } from './engine-decision.js';
import { HOOK_DEFAULTS, runHookRoundtrip } from './hook-roundtrip.js';
import { CLAUDE_DEFAULTS, runClaudeSession } from './claude-session.js';
import { runInterruptTeardowns } from './interrupt.js';
import { SHELL_DEFAULTS, runShellClassify } from './shell-classify.js';
import { STARTUP_DEFAULTS, runDaemonStartup } from './daemon-startup.js';
import type { BenchResult, Metric } from './stats.js';

const BENCHES = ['engine', 'shell', 'startup', 'hook', 'claude'] as const;
type BenchName = (typeof BENCHES)[number];

interface Args {
  readonly json: boolean;
  readonly quick: boolean;
  readonly profile: string | undefined;
  readonly only: readonly BenchName[];
}

function parseArgs(argv: readonly string[]): Args {
  let json = false;
  let quick = false;
  let profile: string | undefined;
  let only: BenchName[] = [...BENCHES];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = join(tmpdir(), `gobby-bench-profile-${process.pid}`);
    else if (arg.startsWith('--profile=')) profile = resolve(arg.slice('--profile='.length));
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      const names = (value ?? '').split(',').filter(Boolean);
      const unknown = names.filter((name) => !(BENCHES as readonly string[]).includes(name));
      if (names.length === 0 || unknown.length > 0) usage(`--only takes a comma list of ${BENCHES.join(', ')}`);
      only = names as BenchName[];
    } else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown argument ${arg}`);
  }
  return { json, quick, only, profile };
}

function usage(problem?: string): never {
  if (problem) process.stderr.write(`bench: ${problem}\n`);
  process.stderr.write(`usage: npm run bench -- [--json] [--quick] [--only ${BENCHES.join(',')}] [--profile[=<dir>]]\n`);
  process.exit(problem ? 2 : 0);
}

export interface Machine {
  readonly cpuModel: string;
  readonly cpus: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly loadAverageAtStart: readonly number[];
  readonly claudeCode: string;
}

function describeMachine(): Machine {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpus: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    claudeCode: claudeVersion(),
  };
}

function claudeVersion(): string {
  try {
    return execFileSync('node_modules/.bin/claude', ['--version'], { encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH ?? '' } }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`bench: ${signal}, stopping the benchmark's daemon and helpers…\n`);
      void runInterruptTeardowns().finally(() => process.exit(130));
    });
  }
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const machine = describeMachine();
  log(`bench: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')}`);

  const results: BenchResult[] = [];
  const runners: Record<BenchName, () => Promise<BenchResult>> = {
    engine: async () =>
      runEngineDecision(args.quick ? { decisions: 20_000, warmup: 5_000 } : ENGINE_DEFAULTS),
    shell: () => runShellClassify(args.quick ? { rounds: 200, warmup: 50, largeRuns: 5 } : SHELL_DEFAULTS),
    startup: () => runDaemonStartup(args.quick ? { runs: 3 } : STARTUP_DEFAULTS),
    hook: () =>
      runHookRoundtrip({
        ...HOOK_DEFAULTS,
        ...(args.quick ? { durationSeconds: 3, warmupSeconds: 1 } : {}),
        profileDirectory: args.profile,
      }),
    claude: () => runClaudeSession(args.quick ? { ...CLAUDE_DEFAULTS, runs: 1 } : CLAUDE_DEFAULTS),
  };
  for (const name of args.only) {
    log(`bench: running ${name}…`);
    const started = Date.now();
    try {
      results.push(await runners[name]());
    } catch (error) {
      results.push({ name, title: name, metrics: [], notes: [], details: {}, error: (error as Error).stack ?? String(error) });
    }
    log(`bench: ${name} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  if (args.json) {
    process.stdout.write(`${JSON.stringify({ machine, finishedAt: new Date().toISOString(), results }, null, 2)}\n`);
  } else {
    process.stdout.write(renderTable(results));
  }
  process.exitCode = results.some((result) => result.error) ? 1 : 0;
}

function renderTable(results: readonly BenchResult[]): string {
  const rows: string[][] = [['benchmark', 'metric', 'value', 'target', 'result']];
  for (const result of results) {
    if (result.error) {
      rows.push([result.title, '(failed to run)', '', '', 'ERROR']);
      continue;
    }
    result.metrics.forEach((m, index) => {
      rows.push([index === 0 ? result.title : '', m.name, formatValue(m.value, m.unit), formatTarget(m), m.pass === undefined ? '' : m.pass ? 'PASS' : 'MISS']);
    });
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]): string =>
    row.map((cell, column) => (column === 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  const out = [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  for (const result of results) {
    out.push('', `${result.title}:`);
    if (result.error) out.push(`  ERROR: ${result.error}`);
    // A note that starts with spaces continues the one before it.
    for (const note of result.notes) out.push(note.startsWith(' ') ? `   ${note}` : `  - ${note}`);
  }
  return `${out.join('\n')}\n`;
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return `${value} ${unit}`;
  if (unit === 'ms') return `${value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0)} ms`;
  if (unit === 'x') return `${value.toFixed(3)}x`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'count') return String(value);
  return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
}

function formatTarget(m: Metric): string {
  if (!m.target) return '';
  const value = m.unit === 'x' ? `${m.target.value}x` : m.unit === 'count' ? String(m.target.value) : `${m.target.value.toLocaleString('en-US')} ${m.unit}`;
  return `${m.target.op} ${value}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
