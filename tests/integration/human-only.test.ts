// Human-only overrides, checked against real processes on this machine (Linux /proc): the
// test process plays the human at a terminal, and a fake "claude" process (registered as the
// session's Claude Code) runs commands the way Claude Code's Bash tool does: through
// `bash -c`, with stdout and stderr sent to a task output file under `claude-<uid>/…/<session
// id>/tasks/`. Whatever the agent does to hide, its override is refused and recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStat } from '../../daemon/provenance/proc-reader.js';
import { TestDaemon, TOKEN, type Json } from './test-daemon.js';

const linux = existsSync('/proc/net/tcp');
const GOBBY_CLI = fileURLToPath(new URL('../../dist/daemon/cli/main.js', import.meta.url));

// The fake Claude Code: runs each command it is sent as `bash -c`, its output in a task file.
const FAKE_CLAUDE = `
const { spawn } = require('node:child_process');
const { openSync, readFileSync } = require('node:fs');
process.on('message', ({ command, output, env }) => {
  const fd = openSync(output, 'a');
  const child = spawn('bash', ['-c', command], { stdio: ['ignore', fd, fd], env, detached: true });
  child.on('close', (code) => process.send({ code, output: readFileSync(output, 'utf8') }));
});
`;

let t: TestDaemon;
let port: number;
let session: string;
let claude: ChildProcess;
let taskCounter = 0;

/** The environment the CLI gets: this daemon, and none of this shell's CLAUDECODE or GOBBY_HOME. */
function cliEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: t.home, GOBBY_HOME: t.home, GOBBY_PORT: String(port) };
}

/** What Claude Code puts in the Bash tool's environment; the agent can unset any of it. */
function agentEnv(): Record<string, string> {
  return { ...cliEnv(), CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session, CLAUDE_PID: String(claude.pid) };
}

/** A command run by the agent's Bash tool: resolves once the `bash -c` returned. */
function agentRuns(command: string, env = agentEnv()): Promise<{ code: number; output: string }> {
  const dir = join(t.home, `claude-${process.getuid?.() ?? 0}`, '-project', session, 'tasks');
  mkdirSync(dir, { recursive: true });
  const output = join(dir, `task${++taskCounter}.output`);
  return new Promise((resolve) => {
    claude.once('message', (reply) => resolve(reply as { code: number; output: string }));
    claude.send({ command, output, env });
  });
}

/** The human, at their terminal: the CLI run by this process. */
function humanRuns(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GOBBY_CLI, ...args], { cwd: t.project, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function waitFor(path: string): Promise<void> {
  for (let i = 0; i < 100 && !existsSync(path); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(existsSync(path), `${path} never appeared`).toBe(true);
}

const cli = (args: string) => `node ${JSON.stringify(GOBBY_CLI)} ${args}`;
const phase = async () => (await t.status()).body.phase as string;
const tamperRows = () => t.daemon.store.audit.list({ sessionId: session, projectId: null, tamperOnly: true, limit: 100 });

describe.skipIf(!linux)('human-only overrides', () => {
  beforeEach(async () => {
    t = TestDaemon.create();
    writeFileSync(t.layout.token, `${TOKEN}\n`, { mode: 0o600 });
    await t.setWorkflow('plan-execute');
    session = t.newSessionId();
    await t.sessionStart(session, t.project);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = portOf(t.app.server);
    const script = join(t.home, 'claude.cjs');
    writeFileSync(script, FAKE_CLAUDE);
    claude = spawn(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise((resolve) => claude.once('spawn', resolve));
    const stat = parseStat(claude.pid!, readFileSync(`/proc/${claude.pid}/stat`, 'utf8'))!;
    t.daemon.store.sessionProcesses.register(session, { pid: stat.pid, startTime: stat.startTime, comm: 'claude', registeredBy: 'session-start' }, Date.now());
  });
  afterEach(async () => {
    claude?.kill();
    await t?.dispose();
  });

  it('refuses the override from the Bash tool with CLAUDECODE unset, and records who tried', async () => {
    const run = await agentRuns(`env -u CLAUDECODE ${cli('workflow phase execute --force --reason x')}`);
    expect(run.code).toBe(1);
    expect(run.output).toContain('GOBBY_ERR_OVERRIDE_FROM_AGENT');
    expect(run.output).toMatch(/`changePhase` is a human-only override and was refused: pid \d+ \(node\) was started by the tools of Claude Code session/);
    expect(await phase()).toBe('plan');
    // `status` counts the refusal as a block, as it counts the guards' own denials.
    expect((await t.status()).body.action_counts.blocked).toBe(1);
    const [row] = tamperRows();
    expect(row).toMatchObject({ event: 'tamper:override', decision: 'deny', phase: 'plan' });
    expect(row!.actor).toMatch(/^process:node\[\d+\]$/);
    expect((row!.detail as Json).signals).toContain(`it descends from Claude Code (pid ${claude.pid})`);
  });

  it('refuses it with the environment scrubbed and the process detached by setsid', async () => {
    const done = join(t.home, 'setsid-done');
    const detached = `setsid -f bash -c '${cli('workflow phase execute --force --reason x')}; echo $? > ${done}'`;
    await agentRuns(`env -i PATH="$PATH" HOME="$HOME" GOBBY_HOME="$GOBBY_HOME" GOBBY_PORT="$GOBBY_PORT" ${detached}`);
    await waitFor(done);
    expect(readFileSync(done, 'utf8').trim()).toBe('1');
    expect(await phase()).toBe('plan');
    const [row] = tamperRows();
    expect(row).toMatchObject({ event: 'tamper:override', decision: 'deny' });
    const signals = (row!.detail as Json).signals as string[];
    // Neither ancestry (reparented to init) nor the environment (scrubbed) is left: the output file is.
    expect(signals.map((signal) => signal.replace(/ \(.*/, ''))).toEqual([
      'its stdout is the output file of a Claude Code Bash tool call',
      'its stderr is the output file of a Claude Code Bash tool call',
    ]);
  });

  // The other ways to detach, each as the agent would write it; the CLI's exit status goes to a file.
  const detachings: [string, (command: string) => string, string][] = [
    ['nohup … &', (command) => `nohup ${command} &`, 'its stdout is the output file'],
    ['a double fork from node -e', (command) => `node -e 'require("node:child_process").spawn("sh", ["-c", "${command}"], { detached: true, stdio: "inherit" }).unref()'`, 'its stdout is the output file'],
    ['a pty from script -qc', (command) => `script -qc '${command}' /dev/null`, 'it descends from Claude Code'],
  ];
  it.each(detachings)('refuses it run through %s', async (_name, wrap, signal) => {
    const done = join(t.home, 'done');
    const script = join(t.home, 'override.sh');
    writeFileSync(script, `${cli('workflow phase execute --force --reason x')}\necho $? > ${done}\n`);
    await agentRuns(wrap(`env -u CLAUDECODE bash ${script}`));
    await waitFor(done);
    expect(readFileSync(done, 'utf8').trim()).toBe('1');
    expect(await phase()).toBe('plan');
    const [row] = tamperRows();
    expect(((row!.detail as Json).signals as string[]).join('; ')).toContain(signal);
  });

  it('refuses a hand-made request that names no pid, and `daemon stop` too', async () => {
    const request = (path: string, body: unknown) =>
      `node -e 'fetch("http://127.0.0.1:${port}${path}", { method: "POST", headers: { authorization: "Bearer ${TOKEN}", "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(body))} }).then(async (r) => console.log(r.status, await r.text()))'`;
    const phaseRun = await agentRuns(request('/api/sessions/phase', { cwd: t.project, phase: 'execute', force: true, reason: 'x' }));
    expect(phaseRun.output).toMatch(/^403 .*GOBBY_ERR_OVERRIDE_FROM_AGENT/);
    const stop = await agentRuns(`env -u CLAUDECODE ${cli('daemon stop')}`);
    expect(stop.output).toContain('GOBBY_ERR_OVERRIDE_FROM_AGENT');
    expect((await t.status()).status).toBe(200);
    expect(tamperRows().map((row) => (row.detail as Json).endpoint)).toEqual(['shutdown', 'changePhase']);
  });

  it("takes the same override from the human's process, and audits user, pid and tty", async () => {
    const run = await humanRuns(['workflow', 'phase', 'execute', '--force', '--reason', 'reviewed by hand']);
    expect(run.code, run.stderr).toBe(0);
    expect(await phase()).toBe('execute');
    const row = t.daemon.store.audit.recent(session, 50).find((entry) => entry.event === 'override:phase')!;
    expect(row.reason).toBe('reviewed by hand');
    expect(row.actor).toMatch(/^cli:.+ \(user \S+, pid \d+, no tty\)$/);
    expect((row.detail as Json).by).toMatchObject({ verified: true, comm: 'node', tty: null });
    expect(typeof (row.detail as Json).by.pid).toBe('number');
    expect(tamperRows()).toEqual([]);
  });

  it('lists the attempts with `gobby workflow audit --tamper`, newest first', async () => {
    await agentRuns(`env -u CLAUDECODE ${cli('workflow disable --reason x')}`);
    await agentRuns(`env -u CLAUDECODE ${cli('workflow reset --reason x')}`);
    await humanRuns(['workflow', 'disable', '--reason', 'by hand', '--for', '10m']);
    const status = await humanRuns(['workflow', 'status']);
    expect(status.stdout).toMatch(/^DISABLED {2}by hand \(since \S+, (10m 0s|9m \d+s) left \(until \S+\)\); re-enable with: gobby workflow enable$/m);
    const text = await humanRuns(['workflow', 'audit', '--tamper']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toBe(`tamper attempts for ${t.project} (all sessions), newest first:`);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/deny\s+tamper:override .*override reset refused: .*\[process:node\[\d+\]\]$/);
    expect(lines[2]).toContain('override disable refused');

    const json = JSON.parse((await humanRuns(['workflow', 'audit', '--json', '--limit', '2', '--session', session])).stdout) as Json;
    expect(json.rows.map((row: Json) => row.event)).toEqual(['override:disable', 'tamper:override']);
    expect(json.rows[0].detail.by.verified).toBe(true);
  });
});

describe('disable --for', () => {
  let d: TestDaemon;
  beforeEach(async () => {
    d = TestDaemon.create();
    await d.setWorkflow('plan-execute');
  });
  afterEach(async () => d.dispose());

  it('turns enforcement back on by itself when the time is up, and audits it', async () => {
    const id = d.newSessionId();
    await d.sessionStart(id);
    const disabled = await d.api('POST', '/api/sessions/disable', { cwd: d.project, reason: 'hotfix', for: '30m' });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.until).toBe(new Date(d.clock() + 30 * 60_000).toISOString());
    const write = () => d.preToolUse(id, 'Write', { file_path: 'a.ts', content: '' });
    expect((await write()).body.hookSpecificOutput?.permissionDecision).not.toBe('deny');

    d.clock.advance(10 * 60_000);
    const left = await d.status();
    expect(left.body.disabled).toMatchObject({ reason: 'hotfix', until: disabled.body.until });
    // The test clock moves on by itself a little with each call; twenty minutes are left, give or take.
    expect(left.body.disabled.seconds_left).toBeGreaterThan(20 * 60 - 10);
    expect(left.body.disabled.seconds_left).toBeLessThanOrEqual(20 * 60);

    d.clock.advance(20 * 60_000);
    expect((await d.status()).body.disabled).toBeNull();
    expect((await write()).body.hookSpecificOutput.permissionDecision).toBe('deny');
    const events = d.auditRows(id).map((row) => row.event);
    // The event's own row first, then its effects': the tool call that noticed the expiry was judged, and denied.
    expect(events.slice(-2)).toEqual(['PreToolUse', 'enforcement_resumed']);
    expect(d.auditRows(id).find((row) => row.event === 'enforcement_resumed')!.because).toContain('`disable --for` ran out');
  });

  it('refuses a duration it cannot read, naming the forms it takes', async () => {
    const id = d.newSessionId();
    await d.sessionStart(id);
    for (const bad of ['30', '30 minutes', '1d', '0m', '200h']) {
      const reply = await d.api('POST', '/api/sessions/disable', { cwd: d.project, reason: 'x', for: bad });
      expect(reply.status, bad).toBe(400);
      expect(reply.body.error.code).toBe('GOBBY_ERR_DURATION_INVALID');
    }
    expect((await d.api('POST', '/api/sessions/disable', { cwd: d.project, reason: 'x', for: '90s' })).status).toBe(200);
    expect((await d.status()).body.disabled.seconds_left).toBeGreaterThan(80);
  });
});

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return address.port;
}
