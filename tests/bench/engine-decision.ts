// Benchmark 1: one PreToolUse decision by the pure engine (no HTTP, no SQLite), against a
// phase with 20 rules that all have to be evaluated because none matches.
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  compileWorkflow,
  evaluateEvent,
  startWorkflow,
  type CompiledWorkflow,
  type EngineEvent,
  type WorkflowState,
} from '../../workflows/index.js';
import { hashDefinitionText } from '../../daemon/workflow-catalog.js';
import { metric, nsToMs, summarize, type BenchResult } from './stats.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/twenty-rules.yaml', import.meta.url));

export interface EngineBenchOptions {
  readonly decisions: number;
  readonly warmup: number;
}

export const ENGINE_DEFAULTS: EngineBenchOptions = { decisions: 100_000, warmup: 20_000 };

/** Allowed by the phase's tool lists and matched by none of its rules. */
const EVENTS: readonly EngineEvent[] = [
  { name: 'PreToolUse', toolName: 'Bash', toolInput: { command: 'npm test -- --run tests/unit', description: 'Run unit tests' } },
  {
    name: 'PreToolUse',
    toolName: 'Edit',
    toolInput: { file_path: '/home/dev/project/src/server/routes.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' },
  },
  { name: 'PreToolUse', toolName: 'Read', toolInput: { file_path: '/home/dev/project/README.md' } },
  { name: 'PreToolUse', toolName: 'Bash', toolInput: { command: 'git status --porcelain && git diff --stat' } },
];

function loadBenchWorkflow(): CompiledWorkflow {
  const text = readFileSync(FIXTURE, 'utf8');
  const compiled = compileWorkflow({ text, file: FIXTURE, tier: 'project' }, hashDefinitionText(text));
  if (!compiled.ok) {
    throw new Error(`bench fixture does not compile:\n${compiled.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join('\n')}`);
  }
  return compiled.workflow;
}

export async function runEngineDecision(options: EngineBenchOptions = ENGINE_DEFAULTS): Promise<BenchResult> {
  const workflow = loadBenchWorkflow();
  const now = Date.UTC(2025, 0, 1);
  const { state } = startWorkflow(workflow, { now });
  const phase = workflow.phase(state.phase)!;
  // Mid-session counters, so the rules that compare them read realistic numbers.
  const running: WorkflowState = { ...state, pendingMessages: [], phaseActionCount: 37, totalActionCount: 120, blockedCount: 2 };
  checkFixture(workflow, running);

  const ctx = { now: now + 90_000 };
  let sink = 0; // keeps the results alive so the JIT cannot drop the calls
  for (let i = 0; i < options.warmup; i++) {
    sink += evaluateEvent(workflow, running, EVENTS[i % EVENTS.length]!, ctx).decision.kind.length;
  }

  // What can put a decision in the tail besides the engine itself: garbage collection
  // pauses, and the OS taking the CPU away (involuntary context switches).
  const gcPausesMs: number[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPausesMs.push(entry.duration);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const usageBefore = process.resourceUsage();

  const samples = new Float64Array(options.decisions);
  const started = process.hrtime.bigint();
  for (let i = 0; i < options.decisions; i++) {
    const event = EVENTS[i % EVENTS.length]!;
    const t0 = process.hrtime.bigint();
    const evaluation = evaluateEvent(workflow, running, event, ctx);
    const t1 = process.hrtime.bigint();
    samples[i] = nsToMs(t1 - t0);
    sink += evaluation.decision.kind.length;
  }
  const totalMs = nsToMs(process.hrtime.bigint() - started);
  if (sink === 0) throw new Error('unreachable: no decisions were made');
  const usageAfter = process.resourceUsage();
  await new Promise((resolve) => setTimeout(resolve, 100)); // GC entries are delivered asynchronously
  gcObserver.disconnect();
  const preempted = usageAfter.involuntaryContextSwitches - usageBefore.involuntaryContextSwitches;
  const cpuMs = (usageAfter.userCPUTime + usageAfter.systemCPUTime - usageBefore.userCPUTime - usageBefore.systemCPUTime) / 1000;
  const gc = summarize(gcPausesMs);
  const slow = samples.filter((ms) => ms >= 0.2).length;

  // The clock itself costs something; measure it so the reader can subtract it.
  const clockSamples = new Float64Array(10_000);
  for (let i = 0; i < clockSamples.length; i++) {
    const t0 = process.hrtime.bigint();
    const t1 = process.hrtime.bigint();
    clockSamples[i] = nsToMs(t1 - t0);
  }

  const latency = summarize(samples);
  const clock = summarize(clockSamples);
  return {
    name: 'engine-decision',
    title: 'Engine: PreToolUse decision, 20 rules',
    metrics: [
      metric('p50', latency.p50, 'ms'),
      metric('p99', latency.p99, 'ms', { op: '<', value: 0.2 }),
      metric('max', latency.max, 'ms'),
      metric('throughput', options.decisions / (totalMs / 1000), 'decisions/s'),
    ],
    notes: [
      `${options.decisions} decisions timed one by one with process.hrtime.bigint() after ${options.warmup} warm-up decisions`,
      `phase \`${phase.name}\`: ${phase.rules.length} rules (none match), ${phase.tools.allowed === 'all' ? 'all' : phase.tools.allowed.patterns.length} allowed and ${phase.tools.blockedPatterns.length} blocked tool patterns; ${EVENTS.length} events in rotation (Bash, Edit, Read, Bash)`,
      `clock overhead per sample: p50 ${clock.p50.toFixed(5)} ms`,
      `${slow} decisions (${((100 * slow) / options.decisions).toFixed(2)}%) took 0.2 ms or more; during the timed loop: ${gcPausesMs.length} GC pauses (total ${sum(gcPausesMs).toFixed(1)} ms, max ${gcPausesMs.length > 0 ? gc.max.toFixed(2) : 0} ms), ${preempted} involuntary context switches, CPU time ${cpuMs.toFixed(0)} ms of ${totalMs.toFixed(0)} ms wall`,
    ],
    details: {
      latencyMs: latency,
      clockOverheadMs: clock,
      rules: phase.rules.length,
      totalMs,
      cpuMs,
      slowSamples: slow,
      gcPauses: gcPausesMs.length,
      gcTotalMs: sum(gcPausesMs),
      gcMaxMs: gcPausesMs.length > 0 ? gc.max : 0,
      involuntaryContextSwitches: preempted,
    },
  };
}

/** A benchmark of the wrong path is worse than none: every event must pass every rule, and a bad one must not. */
function checkFixture(workflow: CompiledWorkflow, state: WorkflowState): void {
  const phase = workflow.phase(state.phase)!;
  if (phase.rules.length !== 20) throw new Error(`bench fixture: expected 20 rules, found ${phase.rules.length}`);
  for (const event of EVENTS) {
    const evaluation = evaluateEvent(workflow, state, event, { now: state.phaseEnteredAt });
    if (evaluation.decision.kind !== 'allow' || evaluation.state !== state) {
      throw new Error(`bench fixture: ${event.name} should pass all rules untouched, got ${JSON.stringify(evaluation.decision)}`);
    }
  }
  const destructive = evaluateEvent(workflow, state, { name: 'PreToolUse', toolName: 'Bash', toolInput: { command: 'rm -rf /' } }, { now: 0 });
  if (destructive.decision.kind !== 'deny') throw new Error('bench fixture: `rm -rf /` should be denied by the first rule');
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
