// Benchmark: parse + classify one Bash command (issue #6 §9). Classification sits on the hot path
// of every Bash call, so the target is p99 < 0.3 ms for commands up to 4 KB, time linear in the
// length, and a cap above which a command is opaque without being parsed.
//
// The classifier remembers recent answers (Claude Code sends each command twice: PreToolUse, then
// PostToolUse). Every timed command here is therefore made new with a trailing comment that changes
// nothing but the string, so the figures are those of a command never seen before; the cost of a
// repeated command is measured apart.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createIdleCollector, type IdleCollector } from '../../daemon/idle-collector.js';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-locator.js';
import { analyzeShellCommand, MAX_COMMAND_LENGTH, type ShellContext } from '../../workflows/index.js';
import { metric, nsToMs, summarize, type BenchResult } from '../bench/stats.js';

interface ShellBenchOptions {
  /** Timed classifications per command of the spread. */
  readonly rounds: number;
  readonly warmup: number;
  /** Timed runs per large input (16 KB, 64 KB, 300 KB). */
  readonly largeRuns: number;
}

export const SHELL_DEFAULTS: ShellBenchOptions = { rounds: 2_000, warmup: 300, largeRuns: 30 };

const CTX: ShellContext = { cwd: '/home/dev/project', home: '/home/dev', projectRoot: '/home/dev/project' };

/** One line of each kind an agent sends, so repetition builds realistic long commands. */
const STATEMENT_MIX = [
  '(cd packages/api && npm test -- --run tests/unit 2>&1 | tail -40)',
  'grep -rn "gobby workflow phase" src docs --include="*.ts" | head -20',
  "find . -name '*.ts' -not -path './node_modules/*' -exec wc -l {} + | sort -n | tail",
  'git status --porcelain && git diff --stat HEAD~1 -- src/',
  'for f in src/*.ts; do echo "$f: $(wc -l < "$f")"; done',
  "jq -r '.scripts | to_entries[] | \"\\(.key): \\(.value)\"' package.json",
  'if [ -f .env ]; then export $(grep -v "^#" .env | xargs); fi',
  'cat <<EOF > /tmp/notes.md\n# Notes\n- item $HOME\nEOF',
  "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"version\"])' < package.json",
  'curl -s -o /dev/null -w "%{http_code}" http://localhost:3000/health || echo down',
];

/**
 * A setup script an agent writes in one Bash call: different short commands, here-docs writing
 * files, pipes, conditionals, a loop. Unlike the repeated mix, no two lines are alike.
 */
const SETUP_SCRIPT = [
  'set -euo pipefail',
  'cd "$(git rev-parse --show-toplevel)"',
  'mkdir -p packages/api/src/routes packages/api/tests/unit .cache/tmp',
  'cp -r templates/api/* packages/api/ 2>/dev/null || true',
  "cat > packages/api/tsconfig.json <<'JSON'\n{\n  \"extends\": \"../../tsconfig.base.json\",\n  \"compilerOptions\": { \"outDir\": \"dist\", \"rootDir\": \"src\" },\n  \"include\": [\"src\"]\n}\nJSON",
  "cat > packages/api/src/routes/health.ts <<'TS'\nimport type { FastifyInstance } from 'fastify';\nexport async function health(app: FastifyInstance) {\n  app.get('/health', async () => ({ ok: true }));\n}\nTS",
  "sed -i 's/\"name\": \"template\"/\"name\": \"@acme\\/api\"/' packages/api/package.json",
  'jq \'.workspaces += ["packages/api"]\' package.json > package.json.tmp && mv package.json.tmp package.json',
  'npm install --no-audit --no-fund --workspace packages/api fastify@5 zod@4',
  'npx tsc -p packages/api --noEmit 2>&1 | head -50',
  'if ! grep -q "packages/api" .gitignore; then echo "packages/api/dist" >> .gitignore; fi',
  'for f in packages/api/src/**/*.ts; do [ -f "$f" ] && wc -l "$f"; done | sort -rn | head -5',
  'find packages/api -name "*.test.ts" -newer package.json -print0 | xargs -0 -r ls -la',
  'export NODE_ENV=test PORT=3999',
  'node --test packages/api/tests/unit/*.test.js > .cache/tmp/test.log 2>&1 || tail -40 .cache/tmp/test.log',
  'git add packages/api package.json .gitignore && git status --short | head -30',
  'diff <(ls packages/api/src/routes) <(ls templates/api/src/routes) || echo "routes differ"',
  'printf "%s\\n" "api ready on port $PORT" | tee -a .cache/tmp/setup.log',
  'rm -rf .cache/tmp/old-* packages/api/dist',
  'curl -fsS --retry 3 http://127.0.0.1:3999/health >/dev/null && echo up || echo "not up yet"',
  'du -sh packages/api node_modules 2>/dev/null | sort -h',
  'git log --oneline -5 -- packages/api',
];

/** Room left in every command for the comment that makes each timed copy unique. */
const UNIQUE_SUFFIX_LENGTH = 9;
const FOUR_KB = 4096 - UNIQUE_SUFFIX_LENGTH;

/** `command` made unique by a trailing comment (`\n#0000042`); flattened before it is timed, as a parsed JSON string is. */
function uniqueCopy(command: string, serial: number): string {
  const copy = `${command}\n#${String(serial % 10_000_000).padStart(7, '0')}`;
  copy.indexOf('\u0000'); // flattens the concatenation outside the timed region
  return copy;
}

function repeatTo(bytes: number, separator: string): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += (out ? separator : '') + STATEMENT_MIX[i % STATEMENT_MIX.length]!;
  return out.slice(0, bytes);
}

/** A spread from one-liners to 4 KB: short commands, long pipelines, scripts, here-docs, inline code. */
function commandSpread(): { readonly label: string; readonly command: string }[] {
  const spread = STATEMENT_MIX.map((command, index) => ({ label: `one-liner ${index + 1}`, command }));
  spread.push({ label: '1 KB list', command: repeatTo(1024, ' && ') });
  spread.push({ label: '2 KB pipeline', command: repeatTo(2048, ' | ') });
  spread.push({ label: '4 KB script', command: wholeStatements(FOUR_KB) });
  spread.push({ label: '4 KB setup script', command: setupScript(FOUR_KB) });
  spread.push({ label: '4 KB here-doc', command: `cat > notes.md <<'EOF'\n${'a line of notes with $vars and `ticks` in it\n'.repeat(90)}EOF` });
  spread.push({ label: '4 KB python -c', command: `python3 -c '${'print("gobby workflow phase"); '.repeat(130)}'` });
  spread.push({ label: '4 KB echo', command: `echo ${'word '.repeat(810)}` });
  spread.push({ label: '4 KB bash -c', command: `bash -c '${wholeStatements(3800).replace(/'/g, `'\\''`)}'` });
  for (const entry of spread) if (entry.command.length > FOUR_KB) throw new Error(`bench: ${entry.label} is ${entry.command.length + UNIQUE_SUFFIX_LENGTH} bytes timed, above 4 KB`);
  return spread;
}

/** Whole statements joined by newlines, up to `bytes` (cutting one in half could leave a quote open). */
function wholeStatements(bytes: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const next = STATEMENT_MIX[i % STATEMENT_MIX.length]!;
    if (length + next.length + 1 > bytes) return lines.join('\n');
    lines.push(next);
    length += next.length + 1;
  }
}

/** The setup script's distinct lines, then again with numbered paths, up to `bytes`. */
function setupScript(bytes: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const round = Math.floor(i / SETUP_SCRIPT.length);
    const line = SETUP_SCRIPT[i % SETUP_SCRIPT.length]!.replaceAll('packages/api', round === 0 ? 'packages/api' : `packages/api${round}`);
    if (length + line.length + 1 > bytes) return lines.join('\n');
    lines.push(line);
    length += line.length + 1;
  }
}

/**
 * Runs the measurement in a node process with the daemon's flags (its small young generation, and
 * --expose-gc for the idle collector), so garbage collection costs what it costs in the daemon.
 */
export async function runShellClassify(options: ShellBenchOptions = SHELL_DEFAULTS): Promise<BenchResult> {
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`bench: the shell measurement exited ${code}`);
  return JSON.parse(stdout) as BenchResult;
}

const CHILD_FLAG = '--shell-bench-child';

interface TimedLoop {
  readonly all: Float64Array;
  readonly fourKb: Float64Array;
  readonly perCommand: readonly Float64Array[];
  readonly gcPausesMs: readonly number[];
  readonly idleCollections: number;
  readonly preempted: number;
}

/**
 * Times every command of the spread `rounds` times. With `collector`, the daemon's idle collector
 * gets its turn before each command (untimed), as between two hook events of a session; without
 * it, commands follow each other with no gap, as in a burst.
 */
async function timedLoop(spread: readonly { readonly command: string }[], rounds: number, serial: { next: number }, collector: IdleCollector | undefined): Promise<TimedLoop> {
  const gcPausesMs: number[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    // Collections the idle collector asked for (forced) ran outside the timed regions: V8's own only.
    for (const entry of list.getEntries()) {
      const flags = (entry as { detail?: { flags?: number } }).detail?.flags ?? 0;
      if ((flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) === 0) gcPausesMs.push(entry.duration);
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const perCommand = spread.map(() => new Float64Array(rounds));
  const all = new Float64Array(rounds * spread.length);
  const fourKb = new Float64Array(rounds * spread.filter((entry) => entry.command.length > 3000).length);
  let allIndex = 0;
  let fourKbIndex = 0;
  let idleCollections = 0;
  let sink = 0;
  const usageBefore = process.resourceUsage();
  for (let round = 0; round < rounds; round++) {
    for (const [index, { command: original }] of spread.entries()) {
      const command = uniqueCopy(original, serial.next++);
      if (collector?.collectIfWorthIt()) idleCollections++;
      const t0 = process.hrtime.bigint();
      const analysis = analyzeShellCommand(command, CTX);
      const ms = nsToMs(process.hrtime.bigint() - t0);
      sink += analysis.effects.length;
      perCommand[index]![round] = ms;
      all[allIndex++] = ms;
      if (command.length > 3000) fourKb[fourKbIndex++] = ms;
    }
  }
  const usageAfter = process.resourceUsage();
  await new Promise((resolve) => setTimeout(resolve, 100)); // GC entries arrive asynchronously
  gcObserver.disconnect();
  if (sink === 0) throw new Error('unreachable: nothing was classified');
  return { all, fourKb, perCommand, gcPausesMs, idleCollections, preempted: usageAfter.involuntaryContextSwitches - usageBefore.involuntaryContextSwitches };
}

async function measureShellClassify(options: ShellBenchOptions): Promise<BenchResult> {
  const spread = commandSpread();
  // A benchmark of the wrong path is worse than none: every command must parse and be classified.
  for (const { command, label } of spread) {
    const problem = analyzeShellCommand(command, CTX).effects.find((effect) => effect.kind === 'opaque' && /parser could not read|unsupported|limit/.test(effect.why));
    if (problem) throw new Error(`bench: ${label} should parse, got ${JSON.stringify(problem)}`);
  }
  const collector = createIdleCollector();
  if (!collector.enabled) throw new Error('bench: the shell measurement needs node --expose-gc, as the daemon has');
  let sink = 0;
  const serial = { next: 0 };
  for (let i = 0; i < options.warmup; i++) for (const { command } of spread) sink += analyzeShellCommand(uniqueCopy(command, serial.next++), CTX).effects.length;

  const session = await timedLoop(spread, options.rounds, serial, collector);
  const burst = await timedLoop(spread, options.rounds, serial, undefined);

  // Linearity: the same statement mix at growing sizes. Above the cap nothing is parsed.
  const sizes = [4 * 1024, 16 * 1024, 64 * 1024 - 64, 300 * 1024];
  const scaling = sizes.map((bytes) => {
    const command = wholeStatements(bytes - UNIQUE_SUFFIX_LENGTH);
    const samples = new Float64Array(options.largeRuns);
    for (let i = 0; i < options.largeRuns; i++) {
      const copy = uniqueCopy(command, serial.next++);
      collector.collectIfWorthIt();
      const t0 = process.hrtime.bigint();
      sink += analyzeShellCommand(copy, CTX).effects.length;
      samples[i] = nsToMs(process.hrtime.bigint() - t0);
    }
    const opaque = analyzeShellCommand(command, CTX).effects.some((effect) => effect.kind === 'opaque' && effect.why.includes('limit gobby parses'));
    return { bytes: command.length + UNIQUE_SUFFIX_LENGTH, medianMs: summarize(samples).p50, opaque };
  });

  // A repeated command (the PostToolUse after a PreToolUse, `git status` again): answered from memory.
  const repeated = new Float64Array(options.rounds * spread.length);
  let repeatedIndex = 0;
  for (let round = 0; round < options.rounds / 4; round++) {
    for (const { command: original } of spread) {
      const command = uniqueCopy(original, serial.next++);
      sink += analyzeShellCommand(command, CTX).effects.length;
      const again = uniqueCopy(original, serial.next - 1); // an equal string, not the same object, as from a second hook event
      const t0 = process.hrtime.bigint();
      sink += analyzeShellCommand(again, CTX).effects.length;
      repeated[repeatedIndex++] = nsToMs(process.hrtime.bigint() - t0);
    }
  }
  const repeatedLatency = summarize(repeated.subarray(0, repeatedIndex));
  if (sink === 0) throw new Error('unreachable: nothing was classified');

  const latency = summarize(session.all);
  const fourKb = summarize(session.fourKb);
  const burstAll = summarize(burst.all);
  const burstFourKb = summarize(burst.fourKb);
  const perKb = scaling.filter((entry) => !entry.opaque).map((entry) => entry.medianMs / (entry.bytes / 1024));
  const capped = scaling.find((entry) => entry.opaque);
  const sizeLabel = (bytes: number): string => `${Math.round(bytes / 1024)} KB`;
  const gcNote = (loop: TimedLoop): string =>
    `${loop.gcPausesMs.length} V8 GC pauses (total ${loop.gcPausesMs.reduce((a, b) => a + b, 0).toFixed(1)} ms, max ${loop.gcPausesMs.length > 0 ? Math.max(...loop.gcPausesMs).toFixed(2) : 0} ms), ${loop.preempted} involuntary context switches`;
  return {
    name: 'shell-classify',
    title: 'Shell: parse + classify one Bash command',
    metrics: [
      metric('p50 (spread to 4 KB)', latency.p50, 'ms'),
      metric('p99 (spread to 4 KB)', latency.p99, 'ms', { op: '<', value: 0.3 }),
      metric('p99 (4 KB commands)', fourKb.p99, 'ms', { op: '<', value: 0.3 }),
      metric('p99 back to back (spread to 4 KB)', burstAll.p99, 'ms'),
      metric('p99 back to back (4 KB commands)', burstFourKb.p99, 'ms'),
      ...scaling.map((entry) => metric(`median ${sizeLabel(entry.bytes)}${entry.opaque ? ' (over the cap: opaque)' : ''}`, entry.medianMs, 'ms')),
      metric('max/min time per KB below the cap', Math.max(...perKb) / Math.min(...perKb), 'x', { op: '<', value: 3 }),
      metric('p50 repeated command (remembered)', repeatedLatency.p50, 'ms'),
      metric('p99 repeated command (remembered)', repeatedLatency.p99, 'ms'),
    ],
    notes: [
      `${spread.length} commands (${spread.map((entry) => entry.label).join(', ')}), ${options.rounds} rounds each, timed one by one with process.hrtime.bigint() after ${options.warmup} warm-up rounds, in a node process with the daemon's flags (${DAEMON_NODE_FLAGS.join(' ')})`,
      `as in a session (the targets): before each command the daemon's idle collector has its turn, as it has between two hook events (daemon/idle-collector.ts; it ran ${session.idleCollections} times); ${gcNote(session)}`,
      `back to back (no target): commands with no gap between them, as in a burst the idle collector never sees; ${gcNote(burst)}`,
      `4 KB commands: p50 ${fourKb.p50.toFixed(3)} ms, p99 ${fourKb.p99.toFixed(3)} ms, max ${fourKb.max.toFixed(3)} ms; back to back p50 ${burstFourKb.p50.toFixed(3)} ms, p99 ${burstFourKb.p99.toFixed(3)} ms, max ${burstFourKb.max.toFixed(3)} ms`,
      `linearity: ${scaling.filter((entry) => !entry.opaque).map((entry) => `${sizeLabel(entry.bytes)} ${(entry.medianMs / (entry.bytes / 1024) * 1000).toFixed(1)} µs/KB`).join(', ')}`,
      `cap: commands above ${MAX_COMMAND_LENGTH} characters are opaque without parsing${capped ? `; ${sizeLabel(capped.bytes)} returned in ${capped.medianMs.toFixed(3)} ms` : ''}`,
      `per command p50/p99 (ms): ${spread.map((entry, index) => { const s = summarize(session.perCommand[index]!); return `${entry.label} ${s.p50.toFixed(3)}/${s.p99.toFixed(3)}`; }).join('; ')}`,
      `load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    ],
    details: { latencyMs: latency, fourKbMs: fourKb, burstMs: burstAll, burstFourKbMs: burstFourKb, scaling, gcPauses: session.gcPausesMs.length, burstGcPauses: burst.gcPausesMs.length },
  };
}

if (process.argv[2] === CHILD_FLAG) {
  const result = await measureShellClassify(JSON.parse(process.argv[3]!) as ShellBenchOptions);
  process.stdout.write(JSON.stringify(result));
}
export { commandSpread, uniqueCopy, CTX };
