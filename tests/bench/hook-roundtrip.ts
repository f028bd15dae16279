// Benchmark 2: POST /hooks/PreToolUse round trips on loopback against the real built
// daemon (started with `gobby daemon start`), from many concurrent sessions, at a fixed
// offered rate. Open loop: request i is due at start + i/rate whatever happened to the
// earlier ones, and its latency counts from that due time, so a stalled daemon shows up
// as latency instead of silently lowering the load (no coordinated omission).
import { spawnPortPrintingServer } from './child-server.js';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from '../support/claude-cli.js';
import { createGobby, type GobbyInstance } from '../support/gobby-process.js';
import { formatShares, summarizeCpuProfile } from './cpu-profile.js';
import { onInterrupt } from './interrupt.js';
import { metric, summarize, type BenchResult, type LatencySummary } from './stats.js';

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
  /** Also run the same load against a trivial `{}` server, for comparison. */
  readonly reference: boolean;
  /** Run the daemon under `node --cpu-prof` and write the profile here. */
  readonly profileDirectory?: string | undefined;
}

export const HOOK_DEFAULTS: HookBenchOptions = {
  rate: 1000,
  durationSeconds: 10,
  warmupSeconds: 2,
  sessions: 50,
  requestTimeoutMs: 5000,
  reference: true,
};

/** Once the schedule is done, in-flight requests get this long before they count as lost. */
const DRAIN_LIMIT_MS = 10_000;

interface PostResult {
  readonly status: number;
  readonly body: string;
}

interface LoadOutcome {
  /** From the scheduled send time (what the targets are checked against). */
  readonly latenciesMs: Float64Array;
  /** From the moment the request was actually handed to node:http. */
  readonly serviceMs: Float64Array;
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
  const result = await measure(options);
  if (!options.profileDirectory) return result;
  // The daemon writes its profile as it exits, which measure() has asked it to do, but
  // `daemon stop` returns before V8 has finished writing: wait for the file.
  const read = (): ReturnType<typeof summarizeCpuProfile> => {
    try {
      return summarizeCpuProfile(options.profileDirectory!);
    } catch {
      return undefined; // still being written
    }
  };
  let profile = read();
  for (let waited = 0; !profile && waited < 10_000; waited += 200) {
    await sleep(200);
    profile = read();
  }
  if (!profile) return { ...result, notes: [...result.notes, `no CPU profile found in ${options.profileDirectory}`] };
  return {
    ...result,
    notes: [
      ...result.notes,
      `daemon CPU profile (${profile.file}, whole daemon life, ${profile.busyMs.toFixed(0)} ms busy; wall-clock sampling, so time the daemon spent descheduled lands on the frame it was in):`,
      `  by concern (inclusive): ${formatShares(profile.byConcern)}`,
      `  by module (self): ${formatShares(profile.byModule)}`,
      `  top functions (self): ${formatShares(profile.topFunctions)}`,
    ],
    details: { ...result.details, profile },
  };
}

async function measure(options: HookBenchOptions): Promise<BenchResult> {
  const gobby = await createGobby();
  const project = mkdtempSync(join(tmpdir(), 'gobby-bench-project-'));
  // One keep-alive agent per session, like one Claude Code process per session (the
  // claude-session benchmark observes that Claude Code's http hooks reuse a connection).
  const agents = Array.from({ length: options.sessions }, () => new Agent({ keepAlive: true }));
  let reference: TrivialServer | undefined;
  const forget = onInterrupt(async () => {
    reference?.close();
    await gobby.cleanup();
    rmSync(project, { recursive: true, force: true });
  });
  try {
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'app.ts'), 'export const answer = 42;\n');
    if (options.profileDirectory) await startProfiledDaemon(gobby, options.profileDirectory);
    await gobby.start();
    const set = await gobby.cli(['workflow', 'set', 'plan-execute'], project);
    if (set.code !== 0) throw new Error(`gobby workflow set plan-execute failed: ${set.stderr}`);

    const sessionIds = Array.from({ length: options.sessions }, (_, i) => `bench-${process.pid}-${String(i).padStart(3, '0')}`);
    await openSessions(gobby, project, sessionIds, options.requestTimeoutMs);
    const before = await daemonStatus(gobby, project);
    const payloads = buildPayloads(project, sessionIds);

    await runOpenLoop(gobby.port, agents, payloads, options.rate, Math.round(options.rate * options.warmupSeconds), options.requestTimeoutMs);
    // One request at a time on one connection (after the warm-up): the floor, without queueing.
    const unloaded = await runSequential(gobby.port, agents[0]!, payloads[0]!, UNLOADED_REQUESTS, options.requestTimeoutMs);
    const daemonCpuBefore = processCpuMs(before.pid);
    const benchCpuBefore = process.cpuUsage();
    const load = await runOpenLoop(
      gobby.port,
      agents,
      payloads,
      options.rate,
      Math.round(options.rate * options.durationSeconds),
      options.requestTimeoutMs,
    );
    const daemonCpuMs = processCpuMs(before.pid) - daemonCpuBefore;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const benchCpuMs = (benchCpu.user + benchCpu.system) / 1000;
    const after = await daemonStatus(gobby, project);

    // The same load against a node:http server that answers {} at once: what loopback
    // HTTP and this load generator cost on this machine right now.
    let referenceLatency: LatencySummary | undefined;
    let referenceService: LatencySummary | undefined;
    let referenceCpuMs = Number.NaN;
    if (options.reference) {
      reference = await startTrivialServer();
      const referenceAgents = Array.from({ length: options.sessions }, () => new Agent({ keepAlive: true }));
      await runOpenLoop(reference.port, referenceAgents, payloads, options.rate, Math.round(options.rate * options.warmupSeconds), options.requestTimeoutMs, false);
      const referenceCpuBefore = processCpuMs(reference.pid);
      const referenceLoad = await runOpenLoop(
        reference.port,
        referenceAgents,
        payloads,
        options.rate,
        Math.round(options.rate * options.durationSeconds),
        options.requestTimeoutMs,
        false,
      );
      for (const agent of referenceAgents) agent.destroy();
      referenceCpuMs = processCpuMs(reference.pid) - referenceCpuBefore;
      referenceLatency = summarize(referenceLoad.latenciesMs);
      referenceService = summarize(referenceLoad.serviceMs);
    }

    const latency = summarize(load.latenciesMs);
    const lag = summarize(load.sendLagMs);
    const service = summarize(load.serviceMs);
    const errors = load.httpErrors + load.connectionErrors + load.wrongAnswers + load.lost;
    // Answers per second of the schedule. If the answers trail the last scheduled send by
    // more than a second, the daemon fell behind: then the rate is taken over the longer span.
    const windowMs = (load.sent / options.rate) * 1000;
    const achievedRate = load.completed / (Math.max(windowMs, load.drainMs > 1000 ? load.elapsedMs : 0) / 1000);
    const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
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
        metric('daemon RSS after load', after.memory_rss_bytes / 1024 / 1024, 'MB', { op: '<', value: 120 }),
        metric('p50 from actual send', service.p50, 'ms'),
        metric('p99 from actual send', service.p99, 'ms'),
        metric('unloaded p50 (1 at a time)', unloaded.p50, 'ms'),
        metric('daemon CPU per event', daemonCpuMs / load.sent, 'ms'),
        ...(referenceLatency
          ? [
              metric('reference {} server p50', referenceLatency.p50, 'ms'),
              metric('reference {} server p99', referenceLatency.p99, 'ms'),
              metric('reference CPU per event', referenceCpuMs / load.sent, 'ms'),
            ]
          : []),
      ],
      notes: [
        `${load.sent} requests in ${options.durationSeconds} s after a ${options.warmupSeconds} s warm-up at the same rate; each session alternates Read (allowed: {}) and Write (denied in phase plan); every answer is checked`,
        `latency counted from each request's scheduled send time to the end of its response (the targets apply to this); the generator sends from a timer with 1 ms granularity, so its own send lag (p50 ${lag.p50.toFixed(3)} ms, p99 ${lag.p99.toFixed(3)} ms, max ${lag.max.toFixed(1)} ms) is included; counted from the actual send instead: p50 ${service.p50.toFixed(3)} ms, p99 ${service.p99.toFixed(3)} ms, max ${service.max.toFixed(1)} ms`,
        `load generator in the same node process as the bench (node:http, one keep-alive Agent per session, ${load.sockets} new sockets in the measured window) sharing the machine's ${availableParallelism()} CPUs with the daemon`,
        `CPU in the measured window: daemon ${daemonCpuMs.toFixed(0)} ms (${((daemonCpuMs / windowMs) * 100).toFixed(0)}% of one CPU), bench process (load generator) ${benchCpuMs.toFixed(0)} ms (${((benchCpuMs / windowMs) * 100).toFixed(0)}%)`,
        `unloaded latency (${UNLOADED_REQUESTS} requests one at a time on one connection): p50 ${unloaded.p50.toFixed(3)} ms, p99 ${unloaded.p99.toFixed(3)} ms`,
        ...(referenceLatency
          ? [
              `reference: the same open loop against a node:http server (own process) that answers {} at once: p50 ${referenceLatency.p50.toFixed(3)} ms, p99 ${referenceLatency.p99.toFixed(3)} ms, max ${referenceLatency.max.toFixed(1)} ms from the schedule; p50 ${referenceService!.p50.toFixed(3)} ms, p99 ${referenceService!.p99.toFixed(3)} ms from the actual send`,
            ]
          : []),
        `daemon RSS ${mb(before.memory_rss_bytes)} MB after the SessionStarts, ${mb(after.memory_rss_bytes)} MB after the load`,
        ...(load.firstErrors.length > 0 ? [`first errors: ${load.firstErrors.join(' | ')}`] : []),
      ],
      details: {
        latencyMs: latency,
        sendLagMs: lag,
        fromActualSendMs: service,
        unloadedLatencyMs: unloaded,
        referenceLatencyMs: referenceLatency,
        referenceFromActualSendMs: referenceService,
        referenceCpuMs,
        sent: load.sent,
        completed: load.completed,
        elapsedMs: load.elapsedMs,
        drainMs: load.drainMs,
        httpErrors: load.httpErrors,
        connectionErrors: load.connectionErrors,
        wrongAnswers: load.wrongAnswers,
        lost: load.lost,
        socketsOpened: load.sockets,
        daemonCpuMs,
        benchCpuMs,
        rssBeforeBytes: before.memory_rss_bytes,
        rssAfterBytes: after.memory_rss_bytes,
        options,
      },
    };
  } finally {
    forget();
    for (const agent of agents) agent.destroy();
    reference?.close();
    await gobby.cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

const UNLOADED_REQUESTS = 1000;

async function runSequential(port: number, agent: Agent, payloads: readonly Payload[], count: number, timeoutMs: number): Promise<LatencySummary> {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await postJson(agent, port, '/hooks/PreToolUse', payloads[i % payloads.length]!.body, timeoutMs);
    samples[i] = performance.now() - started;
    if (answer.status !== 200) throw new Error(`unloaded request answered HTTP ${answer.status}: ${answer.body}`);
  }
  return summarize(samples);
}

interface TrivialServer {
  readonly port: number;
  readonly pid: number;
  close(): void;
}

/** A node:http server in its own process that answers every POST with {}. */
async function startTrivialServer(): Promise<TrivialServer> {
  const script = `require('node:http').createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  }).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
  process.stdin.on('end', () => process.exit(0)).resume();`;
  const { process: child, port } = await spawnPortPrintingServer(['-e', script], 'reference server');
  return { port, pid: child.pid!, close: () => child.kill('SIGTERM') };
}

/** Runs the daemon under --cpu-prof; `gobby daemon start` then finds it running. */
async function startProfiledDaemon(gobby: GobbyInstance, directory: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${directory}`, join(REPO_ROOT, 'dist', 'daemon', 'main.js')], {
    env: gobby.env,
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if ((await gobby.cli(['daemon', 'status', '--json'], gobby.home)).code === 0) return;
    await sleep(100);
  }
  throw new Error('the profiled daemon did not answer within 15 s');
}

/**
 * Opens each session as Claude Code does: the SessionStart command client, run through
 * `sh -c` by this process, which then plays Claude Code. The daemon registers this process
 * as the sessions' sender (daemon/provenance/), so the load below comes from the process a
 * real session's hook events come from.
 */
async function openSessions(gobby: GobbyInstance, project: string, sessionIds: readonly string[], timeoutMs: number): Promise<void> {
  const client = join(REPO_ROOT, 'dist', 'hooks', 'client.js');
  for (const sessionId of sessionIds) {
    const payload = JSON.stringify({
      session_id: sessionId,
      transcript_path: join(project, '.transcripts', `${sessionId}.jsonl`),
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    const answer = await runSessionStartClient(client, payload, gobby.env, timeoutMs);
    if (answer.code !== 0 || !answer.stdout.includes('PLANNING')) {
      throw new Error(`SessionStart for ${sessionId} was not answered with the plan phase: exit ${answer.code} ${answer.stdout} ${answer.stderr}`);
    }
  }
}

function runSessionStartClient(
  client: string,
  payload: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `"${process.execPath}" "${client}" SessionStart`], { env, stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(payload);
  });
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
  /** The reference server answers {} to everything; only the daemon's answers are checked. */
  checkAnswers = true,
): Promise<LoadOutcome> {
  const sessions = payloads.length;
  const latenciesMs = new Float64Array(total).fill(Number.NaN);
  const serviceMs = new Float64Array(total).fill(Number.NaN);
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
    const sentAt = performance.now();
    sendLagMs[i] = sentAt - scheduled;
    sent++;
    postJson(agents[session]!, port, '/hooks/PreToolUse', payload.body, timeoutMs, countSocket).then(
      (answer) => {
        const finished = performance.now();
        lastCompletion = Math.max(lastCompletion, finished);
        if (answer.status < 200 || answer.status > 299) {
          httpErrors++;
          noteError(`HTTP ${answer.status}: ${answer.body.slice(0, 200)}`);
        } else if (checkAnswers && answer.body.includes('"permissionDecision":"deny"') !== payload.expectDeny) {
          wrongAnswers++;
          noteError(`unexpected answer to ${payload.expectDeny ? 'Write' : 'Read'}: ${answer.body.slice(0, 200)}`);
        } else {
          latenciesMs[i] = finished - scheduled;
          serviceMs[i] = finished - sentAt;
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
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    done.then(() => true),
    new Promise<boolean>((resolve) => (drainTimer = setTimeout(() => resolve(false), DRAIN_LIMIT_MS))),
  ]);
  clearTimeout(drainTimer);
  const lost = drained ? 0 : total - settled;
  const measured = latenciesMs.filter((value) => !Number.isNaN(value));
  const measuredService = serviceMs.filter((value) => !Number.isNaN(value));
  return {
    latenciesMs: measured,
    serviceMs: measuredService,
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

interface DaemonStatus {
  readonly pid: number;
  readonly memory_rss_bytes: number;
}

async function daemonStatus(gobby: GobbyInstance, cwd: string): Promise<DaemonStatus> {
  const status = await gobby.json<Partial<DaemonStatus>>(['daemon', 'status'], cwd);
  if (typeof status.memory_rss_bytes !== 'number' || typeof status.pid !== 'number') {
    throw new Error(`gobby daemon status --json lacks pid or memory_rss_bytes: ${JSON.stringify(status)}`);
  }
  return { pid: status.pid, memory_rss_bytes: status.memory_rss_bytes };
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ; Linux reports /proc times in these on every mainstream build

/** User + system CPU time a process has used, from /proc (NaN where there is no /proc). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] and fields[12] are utime and stime (stat fields 14 and 15).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
