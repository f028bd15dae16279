// Benchmark 2: POST /hooks/PreToolUse round trips on loopback against the real built
// daemon (started with `gobby daemon start`), from many concurrent sessions, at a fixed
// offered rate. Open loop: request i is due at start + i/rate whatever happened to the
// earlier ones, and its latency counts from that due time, so a stalled daemon shows up
// as latency instead of silently lowering the load (no coordinated omission).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createGobby, type GobbyInstance } from '../support/gobby-process.js';
import { metric, summarize, type BenchResult } from './stats.js';

export interface HookBenchOptions {
  /** Offered load, events per second. */
  readonly rate: number;
  /** Measured seconds at that rate. */
  readonly durationSeconds: number;
  /** Unmeasured seconds at that rate first (JIT, SQLite page cache, sockets). */
  readonly warmupSeconds: number;
  /** Distinct session_ids, each opened with a SessionStart. */
  readonly sessions: number;
  /** Per-request limit; gobby installs its PreToolUse hook with a 5 s timeout. */
  readonly requestTimeoutMs: number;
}

export const HOOK_DEFAULTS: HookBenchOptions = {
  rate: 1000,
  durationSeconds: 10,
  warmupSeconds: 2,
  sessions: 50,
  requestTimeoutMs: 5000,
};

/** Once the schedule is done, in-flight requests get this long before they count as lost. */
const DRAIN_LIMIT_MS = 10_000;

interface PostResult {
  readonly status: number;
  readonly body: string;
}

interface LoadOutcome {
  readonly latenciesMs: Float64Array;
  readonly sendLagMs: Float64Array;
  readonly sent: number;
  readonly completed: number;
  readonly httpErrors: number;
  readonly connectionErrors: number;
  readonly wrongAnswers: number;
  readonly lost: number;
  readonly firstErrors: string[];
  /** From the first scheduled send to the last answer. */
  readonly elapsedMs: number;
  /** From the last scheduled send to the last answer. */
  readonly drainMs: number;
  readonly sockets: number;
}

export async function runHookRoundtrip(options: HookBenchOptions = HOOK_DEFAULTS): Promise<BenchResult> {
  const gobby = await createGobby();
  const project = mkdtempSync(join(tmpdir(), 'gobby-bench-project-'));
  // One keep-alive agent per session, like one Claude Code process per session.
  const agents = Array.from({ length: options.sessions }, () => new Agent({ keepAlive: true }));
  try {
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'app.ts'), 'export const answer = 42;\n');
    await gobby.start();
    const set = await gobby.cli(['workflow', 'set', 'plan-execute'], project);
    if (set.code !== 0) throw new Error(`gobby workflow set plan-execute failed: ${set.stderr}`);

    const sessionIds = Array.from({ length: options.sessions }, (_, i) => `bench-${process.pid}-${String(i).padStart(3, '0')}`);
    await openSessions(gobby, project, sessionIds, agents, options.requestTimeoutMs);
    const rssBefore = await daemonRss(gobby, project);

    const payloads = buildPayloads(project, sessionIds);
    await runOpenLoop(gobby.port, agents, payloads, options.rate, Math.round(options.rate * options.warmupSeconds), options.requestTimeoutMs);
    const load = await runOpenLoop(
      gobby.port,
      agents,
      payloads,
      options.rate,
      Math.round(options.rate * options.durationSeconds),
      options.requestTimeoutMs,
    );
    const rssAfter = await daemonRss(gobby, project);

    const latency = summarize(load.latenciesMs);
    const lag = summarize(load.sendLagMs);
    const errors = load.httpErrors + load.connectionErrors + load.wrongAnswers + load.lost;
    // Answers per second of the schedule. If the answers trail the last scheduled send by
    // more than a second, the daemon fell behind: then the rate is taken over the longer span.
    const windowMs = (load.sent / options.rate) * 1000;
    const achievedRate = load.completed / (Math.max(windowMs, load.drainMs > 1000 ? load.elapsedMs : 0) / 1000);
    return {
      name: 'hook-roundtrip',
      title: `Daemon: POST /hooks/PreToolUse, ${options.sessions} sessions, open loop`,
      metrics: [
        metric('offered rate', options.rate, 'events/s'),
        metric('achieved rate', achievedRate, 'events/s', { op: '>=', value: 1000 }),
        metric('p50', latency.p50, 'ms', { op: '<', value: 1 }),
        metric('p99', latency.p99, 'ms', { op: '<', value: 5 }),
        metric('max', latency.max, 'ms'),
        metric('errors', errors, 'count', { op: '==', value: 0 }),
        metric('daemon RSS after load', rssAfter / 1024 / 1024, 'MB', { op: '<', value: 120 }),
      ],
      notes: [
        `${load.sent} requests in ${options.durationSeconds} s after a ${options.warmupSeconds} s warm-up at the same rate; half Read (allowed: {}), half Write (denied by phase plan)`,
        `latency counted from each request's scheduled send time to the end of its response; the generator's own send lag p99 ${lag.p99.toFixed(3)} ms, max ${lag.max.toFixed(1)} ms`,
        `load generator in the same node process as the bench (node:http, one keep-alive Agent per session, ${load.sockets} sockets opened in the measured window) sharing the machine's ${availableParallelism()} CPUs with the daemon`,
        `daemon RSS ${(rssBefore / 1024 / 1024).toFixed(1)} MB before the load (after SessionStart), ${(rssAfter / 1024 / 1024).toFixed(1)} MB after`,
        ...(load.firstErrors.length > 0 ? [`first errors: ${load.firstErrors.join(' | ')}`] : []),
      ],
      details: {
        latencyMs: latency,
        sendLagMs: lag,
        sent: load.sent,
        completed: load.completed,
        elapsedMs: load.elapsedMs,
        drainMs: load.drainMs,
        httpErrors: load.httpErrors,
        connectionErrors: load.connectionErrors,
        wrongAnswers: load.wrongAnswers,
        lost: load.lost,
        socketsOpened: load.sockets,
        rssBeforeBytes: rssBefore,
        rssAfterBytes: rssAfter,
        options,
      },
    };
  } finally {
    for (const agent of agents) agent.destroy();
    await gobby.cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

async function openSessions(
  gobby: GobbyInstance,
  project: string,
  sessionIds: readonly string[],
  agents: readonly Agent[],
  timeoutMs: number,
): Promise<void> {
  await Promise.all(
    sessionIds.map(async (sessionId, i) => {
      const payload = JSON.stringify({
        session_id: sessionId,
        transcript_path: join(project, '.transcripts', `${sessionId}.jsonl`),
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
      });
      const answer = await postJson(agents[i]!, gobby.port, '/hooks/SessionStart', payload, timeoutMs);
      if (answer.status !== 200 || !answer.body.includes('PLANNING')) {
        throw new Error(`SessionStart for ${sessionId} was not answered with the plan phase: ${answer.status} ${answer.body}`);
      }
    }),
  );
}

interface Payload {
  readonly session: number;
  readonly body: string;
  readonly expectDeny: boolean;
}

/** Per session: a Read (allowed in phase plan) and a Write (denied), as Claude Code sends them. */
function buildPayloads(project: string, sessionIds: readonly string[]): Payload[][] {
  const fileContent = `${'// generated by the benchmark\n'.repeat(4)}${'export const line = "x";\n'.repeat(40)}`;
  return sessionIds.map((sessionId, session) => {
    const common = {
      session_id: sessionId,
      transcript_path: join(project, '.transcripts', `${sessionId}.jsonl`),
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
    };
    return [
      {
        session,
        expectDeny: false,
        body: JSON.stringify({ ...common, tool_name: 'Read', tool_input: { file_path: join(project, 'src', 'app.ts') }, tool_use_id: `toolu_bench_r${session}` }),
      },
      {
        session,
        expectDeny: true,
        body: JSON.stringify({
          ...common,
          tool_name: 'Write',
          tool_input: { file_path: join(project, 'src', `generated-${session}.ts`), content: fileContent },
          tool_use_id: `toolu_bench_w${session}`,
        }),
      },
    ];
  });
}

async function runOpenLoop(
  port: number,
  agents: readonly Agent[],
  payloads: readonly Payload[][],
  rate: number,
  total: number,
  timeoutMs: number,
): Promise<LoadOutcome> {
  const sessions = payloads.length;
  const latenciesMs = new Float64Array(total).fill(Number.NaN);
  const sendLagMs = new Float64Array(total);
  const firstErrors: string[] = [];
  let httpErrors = 0;
  let connectionErrors = 0;
  let wrongAnswers = 0;
  let completed = 0;
  let settled = 0;
  let sent = 0;
  let sockets = 0;
  let lastCompletion = 0;
  const countSocket = (): void => {
    sockets++;
  };
  const noteError = (text: string): void => {
    if (firstErrors.length < 3) firstErrors.push(text);
  };

  const intervalMs = 1000 / rate;
  const start = performance.now() + 5;
  const due = (i: number): number => start + i * intervalMs;

  let allSettled: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allSettled = resolve));
  const settle = (): void => {
    settled++;
    if (settled === total) allSettled();
  };

  const send = (i: number): void => {
    const session = i % sessions;
    // Each session alternates Read and Write across its own requests.
    const payload = payloads[session]![Math.floor(i / sessions) % 2]!;
    const scheduled = due(i);
    sendLagMs[i] = performance.now() - scheduled;
    sent++;
    postJson(agents[session]!, port, '/hooks/PreToolUse', payload.body, timeoutMs, countSocket).then(
      (answer) => {
        const finished = performance.now();
        lastCompletion = Math.max(lastCompletion, finished);
        if (answer.status < 200 || answer.status > 299) {
          httpErrors++;
          noteError(`HTTP ${answer.status}: ${answer.body.slice(0, 200)}`);
        } else if (answer.body.includes('"permissionDecision":"deny"') !== payload.expectDeny) {
          wrongAnswers++;
          noteError(`unexpected answer to ${payload.expectDeny ? 'Write' : 'Read'}: ${answer.body.slice(0, 200)}`);
        } else {
          latenciesMs[i] = finished - scheduled;
          completed++;
        }
        settle();
      },
      (error: unknown) => {
        connectionErrors++;
        noteError((error as Error).message);
        settle();
      },
    );
  };

  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      while (next < total && due(next) <= now) send(next++);
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, due(next) - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  const drained = await Promise.race([done.then(() => true), sleep(DRAIN_LIMIT_MS).then(() => false)]);
  const lost = drained ? 0 : total - settled;
  const measured = latenciesMs.filter((value) => !Number.isNaN(value));
  return {
    latenciesMs: measured,
    sendLagMs,
    sent,
    completed,
    httpErrors,
    connectionErrors,
    wrongAnswers,
    lost,
    firstErrors,
    elapsedMs: Math.max(lastCompletion, due(total - 1)) - start,
    drainMs: Math.max(0, lastCompletion - due(total - 1)),
    sockets,
  };
}

function postJson(
  agent: Agent,
  port: number,
  path: string,
  payload: string,
  timeoutMs: number,
  onNewSocket?: () => void,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    if (onNewSocket) {
      // A reused keep-alive socket is already connected; only new ones emit 'connect'.
      req.once('socket', (socket) => {
        if (socket.connecting) socket.once('connect', onNewSocket);
      });
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function daemonRss(gobby: GobbyInstance, cwd: string): Promise<number> {
  const status = await gobby.json<{ memory_rss_bytes?: number }>(['daemon', 'status'], cwd);
  if (typeof status.memory_rss_bytes !== 'number') throw new Error(`gobby daemon status --json has no memory_rss_bytes: ${JSON.stringify(status)}`);
  return status.memory_rss_bytes;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
