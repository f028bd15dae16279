// Benchmark: parse + classify one Bash command (issue #6 §9). Classification sits on the hot path
// of every Bash call, so the target is p99 < 0.3 ms for commands up to 4 KB, time linear in the
// length, and a cap above which a command is opaque without being parsed.
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { analyzeShellCommand, MAX_COMMAND_LENGTH, type ShellContext } from '../../workflows/index.js';
import { metric, nsToMs, summarize, type BenchResult } from './stats.js';

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
  spread.push({ label: '4 KB script', command: wholeStatements(4096) });
  spread.push({ label: '4 KB here-doc', command: `cat > notes.md <<'EOF'\n${'a line of notes with $vars and `ticks` in it\n'.repeat(90)}EOF` });
  spread.push({ label: '4 KB python -c', command: `python3 -c '${'print("gobby workflow phase"); '.repeat(130)}'` });
  spread.push({ label: '4 KB echo', command: `echo ${'word '.repeat(810)}` });
  spread.push({ label: '4 KB bash -c', command: `bash -c '${wholeStatements(3800).replace(/'/g, `'\\''`)}'` });
  for (const entry of spread) if (entry.command.length > 4096) throw new Error(`bench: ${entry.label} is ${entry.command.length} bytes, above 4 KB`);
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

export async function runShellClassify(options: ShellBenchOptions = SHELL_DEFAULTS): Promise<BenchResult> {
  const spread = commandSpread();
  // A benchmark of the wrong path is worse than none: every command must parse and be classified.
  for (const { command, label } of spread) {
    const problem = analyzeShellCommand(command, CTX).effects.find((effect) => effect.kind === 'opaque' && /parser could not read|unsupported|limit/.test(effect.why));
    if (problem) throw new Error(`bench: ${label} should parse, got ${JSON.stringify(problem)}`);
  }
  let sink = 0;
  for (let i = 0; i < options.warmup; i++) for (const { command } of spread) sink += analyzeShellCommand(command, CTX).effects.length;

  const gcPausesMs: number[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPausesMs.push(entry.duration);
  });
  gcObserver.observe({ entryTypes: ['gc'] });

  const usageBefore = process.resourceUsage();
  const perCommand = spread.map(() => new Float64Array(options.rounds));
  const all = new Float64Array(options.rounds * spread.length);
  const large = new Float64Array(options.rounds * spread.filter((entry) => entry.command.length > 3000).length);
  let allIndex = 0;
  let largeIndex = 0;
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, { command }] of spread.entries()) {
      const t0 = process.hrtime.bigint();
      const analysis = analyzeShellCommand(command, CTX);
      const ms = nsToMs(process.hrtime.bigint() - t0);
      sink += analysis.effects.length;
      perCommand[index]![round] = ms;
      all[allIndex++] = ms;
      if (command.length > 3000) large[largeIndex++] = ms;
    }
  }
  const usageAfter = process.resourceUsage();
  await new Promise((resolve) => setTimeout(resolve, 100)); // GC entries arrive asynchronously
  gcObserver.disconnect();
  const preempted = usageAfter.involuntaryContextSwitches - usageBefore.involuntaryContextSwitches;

  // Linearity: the same statement mix at growing sizes. Above the cap nothing is parsed.
  const sizes = [4 * 1024, 16 * 1024, 64 * 1024 - 64, 300 * 1024];
  const scaling = sizes.map((bytes) => {
    const command = wholeStatements(bytes);
    const samples = new Float64Array(options.largeRuns);
    for (let i = 0; i < options.largeRuns; i++) {
      const t0 = process.hrtime.bigint();
      sink += analyzeShellCommand(command, CTX).effects.length;
      samples[i] = nsToMs(process.hrtime.bigint() - t0);
    }
    const opaque = analyzeShellCommand(command, CTX).effects.some((effect) => effect.kind === 'opaque' && effect.why.includes('limit gobby parses'));
    return { bytes: command.length, medianMs: summarize(samples).p50, opaque };
  });
  if (sink === 0) throw new Error('unreachable: nothing was classified');

  const latency = summarize(all);
  const fourKb = summarize(large);
  const perKb = scaling.filter((entry) => !entry.opaque).map((entry) => entry.medianMs / (entry.bytes / 1024));
  const capped = scaling.find((entry) => entry.opaque);
  const sizeLabel = (bytes: number): string => `${Math.round(bytes / 1024)} KB`;
  return {
    name: 'shell-classify',
    title: 'Shell: parse + classify one Bash command',
    metrics: [
      metric('p50 (spread to 4 KB)', latency.p50, 'ms'),
      metric('p99 (spread to 4 KB)', latency.p99, 'ms', { op: '<', value: 0.3 }),
      metric('p99 (4 KB commands)', fourKb.p99, 'ms', { op: '<', value: 0.3 }),
      ...scaling.map((entry) => metric(`median ${sizeLabel(entry.bytes)}${entry.opaque ? ' (over the cap: opaque)' : ''}`, entry.medianMs, 'ms')),
      metric('max/min time per KB below the cap', Math.max(...perKb) / Math.min(...perKb), 'x', { op: '<', value: 3 }),
    ],
    notes: [
      `${spread.length} commands (${spread.map((entry) => entry.label).join(', ')}), ${options.rounds} rounds each, timed one by one with process.hrtime.bigint() after ${options.warmup} warm-up rounds`,
      `4 KB commands: p50 ${fourKb.p50.toFixed(3)} ms, p99 ${fourKb.p99.toFixed(3)} ms, max ${fourKb.max.toFixed(3)} ms; all commands: max ${latency.max.toFixed(3)} ms`,
      `linearity: ${scaling.filter((entry) => !entry.opaque).map((entry) => `${sizeLabel(entry.bytes)} ${(entry.medianMs / (entry.bytes / 1024) * 1000).toFixed(1)} µs/KB`).join(', ')}`,
      `cap: commands above ${MAX_COMMAND_LENGTH} characters are opaque without parsing${capped ? `; ${sizeLabel(capped.bytes)} returned in ${capped.medianMs.toFixed(3)} ms` : ''}`,
      `per command p50/p99 (ms): ${spread.map((entry, index) => { const s = summarize(perCommand[index]!); return `${entry.label} ${s.p50.toFixed(3)}/${s.p99.toFixed(3)}`; }).join('; ')}`,
      `during the timed loop: ${gcPausesMs.length} GC pauses (total ${gcPausesMs.reduce((a, b) => a + b, 0).toFixed(1)} ms, max ${gcPausesMs.length > 0 ? Math.max(...gcPausesMs).toFixed(2) : 0} ms), ${preempted} involuntary context switches; load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    ],
    details: { latencyMs: latency, fourKbMs: fourKb, scaling, gcPauses: gcPausesMs.length },
  };
}
