// `gobby statusline` as Claude Code runs it: the session's JSON on stdin, one line out, and
// never an error, whatever the daemon does. The daemon is a stub here; the route itself is
// tested in tests/integration/statusline.test.ts and the whole chain in tests/e2e.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusLineAnswer } from '../../daemon/contracts/statusline-answer.js';
import { runStatusLine } from '../../daemon/cli/statusline-command.js';
import type { FetchLike, FetchLikeResponse } from '../../hooks/loopback-fetch.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function env() {
  const home = mkdtempSync(join(tmpdir(), 'gobby-sl-'));
  homes.push(home);
  return { GOBBY_HOME: home, GOBBY_PORT: '47001', PATH: process.env.PATH };
}

const STDIN = JSON.stringify({
  session_id: 'c0ffee00-0000-4000-8000-000000000001',
  transcript_path: '/home/me/.claude/projects/p/c0ffee.jsonl',
  cwd: '/work/app/src',
  model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet 4.5' },
  workspace: { current_dir: '/work/app/src', project_dir: '/work/app' },
  version: '2.1.330',
});

const PLAN: StatusLineAnswer = {
  project: '/work/app',
  session_id: 'c0ffee00-0000-4000-8000-000000000001',
  session_known: true,
  workflow: 'plan-execute',
  phase: 'plan',
  phase_number: 1,
  phase_count: 2,
  pending_approval: null,
  blocked_this_turn: 0,
  enforcement: { state: 'on' },
  workflow_problem: null,
};

function answering(body: unknown, options: { status?: number; gobby?: boolean } = {}): FetchLike & { urls: string[] } {
  const urls: string[] = [];
  const fetchImpl = async (url: string): Promise<FetchLikeResponse> => {
    urls.push(url);
    return {
      status: options.status ?? 200,
      header: (name) => (name === 'x-gobby-version' && options.gobby !== false ? '0.1.0' : undefined),
      text: async () => (typeof body === 'string' ? body : JSON.stringify(body)),
    };
  };
  return Object.assign(fetchImpl, { urls });
}

async function line(answer: unknown, args: string[] = [], stdin = STDIN): Promise<string> {
  const result = await runStatusLine({ args, stdin, env: env(), cwd: '/elsewhere', fetchImpl: answering(answer) });
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

describe('the line, phase by phase', () => {
  it.each<[string, Partial<StatusLineAnswer>, string]>([
    ['in plan', {}, 'gobby: plan-execute › plan (1/2)'],
    ['in execute', { phase: 'execute', phase_number: 2 }, 'gobby: plan-execute › execute (2/2)'],
    [
      'an approval pending',
      { pending_approval: { prompt: 'Plan complete. Ready to implement?', next_phase: 'execute', approve_words: ['yes', 'approve'], reject_words: ['no'] } },
      'gobby: plan-execute › plan (1/2) · approval pending: reply yes to move to execute, no to stay',
    ],
    ['refusals this turn', { blocked_this_turn: 2 }, 'gobby: plan-execute › plan (1/2) · 2 refused this turn'],
    ['disabled', { enforcement: { state: 'disabled', reason: 'hotfix' } }, 'gobby: plan-execute › plan (1/2) · enforcement OFF (hotfix); gobby workflow enable'],
    [
      'paused',
      { enforcement: { state: 'paused', reason: 'demo', until: '2026-11-23T21:00:00.000Z', seconds_left: 1740 } },
      'gobby: plan-execute › plan (1/2) · enforcement paused, 29 min left (demo)',
    ],
    [
      'no workflow',
      { workflow: null, phase: null, phase_number: null, phase_count: null, enforcement: { state: 'off', why: 'no workflow chosen for this project (gobby workflow set <name>)' } },
      'gobby: no workflow chosen for this project (gobby workflow set <name>)',
    ],
    [
      'a session not heard from',
      { session_known: false, phase: null, phase_number: null, phase_count: null, enforcement: { state: 'off', why: 'this session has not reported to gobby yet' } },
      'gobby: plan-execute · this session has not reported to gobby yet',
    ],
    [
      'its workflow file broken',
      { workflow_problem: { workflow: 'plan-execute', error: '/work/app/.gobby/workflows/plan-execute.yaml:4:20: invalid YAML: missing ]' } },
      'gobby: plan-execute › plan (1/2) · workflow file does not load: /work/app/.gobby/workflows/plan-execute.yaml:4:20: invalid YAML: missing ] (gobby workflow status)',
    ],
    [
      'its workflow file broken, before the session reports',
      {
        session_known: false,
        phase: null,
        phase_number: null,
        phase_count: null,
        enforcement: { state: 'off', why: 'this session has not reported to gobby yet' },
        workflow_problem: { workflow: 'plan-execute', error: 'plan-execute.yaml:1:1: invalid YAML' },
      },
      'gobby: plan-execute · this session has not reported to gobby yet · workflow file does not load: plan-execute.yaml:1:1: invalid YAML (gobby workflow status)',
    ],
  ])('%s', async (_label, change, expected) => {
    expect(await line({ ...PLAN, ...change })).toBe(`${expected}\n`);
  });

  it('from a daemon older than this gobby, without `workflow_problem`: the line as before', async () => {
    const { workflow_problem: _omitted, ...older } = PLAN;
    expect(await line(older)).toBe('gobby: plan-execute › plan (1/2)\n');
  });

  it("asks about Claude Code's session, in the directory it works in", async () => {
    const fetchImpl = answering(PLAN);
    await runStatusLine({ args: [], stdin: STDIN, env: env(), cwd: '/elsewhere', fetchImpl });
    const url = new URL(fetchImpl.urls[0]!);
    expect(url.pathname).toBe('/api/statusline');
    expect(url.port).toBe('47001');
    expect(Object.fromEntries(url.searchParams)).toEqual({ cwd: '/work/app/src', session: 'c0ffee00-0000-4000-8000-000000000001' });
  });

  it('--json: the line and what the daemon said', async () => {
    expect(JSON.parse(await line(PLAN, ['--json']))).toEqual({ line: 'gobby: plan-execute › plan (1/2)', daemon: 'running', status: PLAN });
  });
});

describe('when the daemon cannot answer: one short line, exit 0, no stack trace', () => {
  it('not running', async () => {
    const refused: FetchLike = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:47001'), { code: 'ECONNREFUSED' });
    };
    const result = await runStatusLine({ args: [], stdin: STDIN, env: env(), cwd: '/', fetchImpl: refused });
    expect(result).toEqual({ stdout: 'gobby: daemon not running (gobby daemon start)\n', stderr: '', exitCode: 0 });
  });

  it('hanging: gives up within about a second', async () => {
    const hanging: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const started = Date.now();
    const result = await runStatusLine({ args: [], stdin: STDIN, env: env(), cwd: '/', fetchImpl: hanging });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.stdout).toBe('gobby: the daemon on port 47001 did not answer within 1000 ms\n');
  });

  it('another program on the port, an error answer, a shape it cannot read', async () => {
    expect(await line('<html>hi</html>')).toBe('gobby: the daemon answered HTTP 200 without JSON\n');
    const other = await runStatusLine({ args: [], stdin: STDIN, env: env(), cwd: '/', fetchImpl: answering('<html></html>', { gobby: false }) });
    expect(other.stdout).toBe('gobby: another program answers on port 47001\n');
    const forbidden = await runStatusLine({
      args: [],
      stdin: STDIN,
      env: env(),
      cwd: '/',
      fetchImpl: answering({ error: { code: 'GOBBY_ERR_HTTP_FORBIDDEN', message: 'the control API needs the token' } }, { status: 403 }),
    });
    expect(forbidden.stdout).toBe('gobby: the control API needs the token\n');
    expect(await line({ something: 'else' })).toMatch(/^gobby: the daemon answered in a shape this gobby cannot read/);
  });

  it('stdin that is not JSON still gives a line, for the current directory', async () => {
    const fetchImpl = answering(PLAN);
    const result = await runStatusLine({ args: [], stdin: 'not json', env: env(), cwd: '/elsewhere', fetchImpl });
    expect(result.stdout).toBe('gobby: plan-execute › plan (1/2)\n');
    expect(new URL(fetchImpl.urls[0]!).searchParams.get('cwd')).toBe('/elsewhere');
  });
});

describe('--then: chained with the status line the user already had', () => {
  it("prints the user's lines first, with the same stdin, then gobby's below", async () => {
    // sed, not an interpreter: a slow start-up on a busy machine would run into the 5 s bound.
    const theirs = `sed -n 's/.*"display_name":"\\([^"]*\\)".*/[\\1]/p'; echo '  '`;
    expect(await line(PLAN, ['--then', theirs])).toBe('[Sonnet 4.5]\ngobby: plan-execute › plan (1/2)\n');
  });

  it('a previous command that fails shows nothing of its own, as Claude Code would; gobby still shows', async () => {
    const result = await runStatusLine({ args: ['--then', 'echo half; exit 3'], stdin: STDIN, env: env(), cwd: '/', fetchImpl: answering(PLAN) });
    expect(result.stdout).toBe('gobby: plan-execute › plan (1/2)\n');
  });

  it('usage mistakes are told on stderr', async () => {
    const result = await runStatusLine({ args: ['--then'], stdin: '', env: env(), cwd: '/', fetchImpl: answering(PLAN) });
    expect(result).toMatchObject({ stdout: '', exitCode: 2 });
    expect(result.stderr).toContain('--then needs the command');
  });
});
